import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { DomainError, badRequest } from '../../../domain/index.js';
import type { ShareOptions } from '../../../application/contract.js';
import {
  UPLOAD_FIELDS,
  isUploadField,
  noUploadFields,
  setUploadField,
  shareOptionsOf,
  type UploadFields,
} from './upload-fields.js';
import { FormDataReader, type FilePartInfo, type FormLimits } from './multipart/form-data.js';
import { multipartBoundary } from './multipart/part-headers.js';
import { streamChunks } from './stream-chunks.js';

export interface UploadPart {
  content: AsyncIterable<Uint8Array>;
  filename: string;
  mime: string | undefined;
  folderId: string | null;
  name: string | null;
  /** The share to make with the file (`share=true`), with its options; null: none. */
  share: ShareOptions | null;
  /** End-to-end encrypted: the sealed metadata object (encryptedMetadata); null: a plain upload. */
  encryptedMetadata: string | null;
  /** A file request's form: who sends it and their note (the only fields that form takes). */
  sender: { uploaderName: string | null; note: string | null };
}

/** The fields of a file request's upload form (POST /api/request/{id}/file): nothing else is taken there. */
export const REQUEST_FORM_FIELDS = ['uploaderName', 'note'] as const;
type RequestField = (typeof REQUEST_FORM_FIELDS)[number];

const FIELD_LIMIT = 4 * 1024;

const LIMIT_MESSAGES = {
  files: 'Only one file per upload',
  fields: 'Too many form fields',
  parts: 'Too many form parts',
} as const;

const tooLarge = (max: number) =>
  new DomainError('payload_too_large', `The file exceeds the upload limit of ${max} bytes`, { maxBytes: max });

/**
 * Streams the `file` part of a multipart/form-data request into `store`, never buffering it.
 * The fields must come before the `file` part: the file is stored while it arrives, so a field after it is a
 * bad_request. The content only ends once the whole form has been read, so a request that turns out malformed, too
 * large or aborted after the file part still fails the upload (and the core cleans up).
 */
export function receiveUpload<T>(
  req: IncomingMessage,
  maxBytes: number,
  store: (part: UploadPart) => Promise<T>,
  form: 'upload' | 'request' = 'upload',
): Promise<T> {
  const boundary = multipartBoundary(req.headers['content-type']);
  if (boundary === undefined) {
    return Promise.reject(badRequest('Upload must be multipart/form-data with a boundary'));
  }
  const limits: FormLimits = { files: 1, fields: 10, parts: 12, fieldSize: FIELD_LIMIT, fileSize: maxBytes + 1 };
  return new MultipartUpload(req, boundary, limits, maxBytes, store, form).result;
}

/** One upload on its way: the fields read so far, its one file part, and the first failure, which wins. */
class MultipartUpload<T> {
  readonly result: Promise<T>;
  private settle!: { resolve: (value: T) => void; reject: (err: Error) => void };
  private readonly fields: UploadFields = noUploadFields();
  private readonly sender: Record<RequestField, string | null> = { uploaderName: null, note: null };
  private started = false;
  private failure: Error | null = null;
  private fileStream: Readable | null = null;
  /** Settles once the whole form has been read; the file's content ends only then. */
  private readonly formComplete: Promise<void>;
  private form!: { done: () => void; failed: (err: Error) => void };
  private readonly parser: FormDataReader;

  constructor(
    private readonly req: IncomingMessage,
    boundary: string,
    limits: FormLimits,
    private readonly maxBytes: number,
    private readonly store: (part: UploadPart) => Promise<T>,
    private readonly form_: 'upload' | 'request',
  ) {
    this.result = new Promise<T>((resolve, reject) => (this.settle = { resolve, reject }));
    this.formComplete = new Promise<void>((done, failed) => (this.form = { done, failed }));
    this.formComplete.catch(() => {});

    const parser = new FormDataReader(boundary, limits, {
      field: (name, value, truncated) => this.onField(name, value, truncated),
      file: (name, stream, info) => this.onFile(name, stream, info),
      limit: (kind) => this.fail(badRequest(LIMIT_MESSAGES[kind])),
    });
    this.parser = parser;
    parser.on('finish', () => {
      if (this.started) this.form.done();
      else this.fail(badRequest('The form has no file part named "file"'));
    });
    parser.on('error', () => this.fail(badRequest('Malformed multipart body')));
    // A client that goes away is its own failure, not a server fault: nobody reads the answer, and nothing is logged.
    const aborted = () => this.fail(badRequest('The client aborted the upload'));
    req.on('error', aborted);
    req.on('close', () => {
      if (!req.complete) aborted();
    });
    req.pipe(parser);
  }

  /** Stops reading the form but drains the request, so the client still gets the error response. */
  private fail(err: Error): void {
    if (this.failure) return;
    this.failure = err;
    this.form.failed(err);
    this.fileStream?.destroy(err);
    this.req.unpipe(this.parser);
    this.req.resume();
    // the parser must not be torn down from inside its own callbacks
    setImmediate(() => this.parser.destroy());
    if (!this.started) this.settle.reject(err);
  }

  private onField(name: string | undefined, value: string, truncated: boolean): void {
    if (this.failure) return;
    const known = this.form_ === 'request' ? REQUEST_FORM_FIELDS : Object.keys(UPLOAD_FIELDS);
    if (this.started) return this.fail(badRequest(`Fields ${known.join(', ')} must come before the file part`));
    if (this.form_ === 'request') return this.onSenderField(name, value, truncated);
    // As with JSON bodies, a field the upload does not know is refused rather than silently dropped.
    if (name === undefined || !isUploadField(name)) {
      return this.fail(badRequest(`${name} is not a field of an upload`, { field: name }));
    }
    if (truncated) return this.fail(badRequest(`Field ${name} is too long`));
    try {
      setUploadField(this.fields, name, value);
    } catch (err) {
      this.fail(err as Error);
    }
  }

  /** A file request's form takes who sends the file and a note, each once; an empty one counts as absent. */
  private onSenderField(name: string | undefined, value: string, truncated: boolean): void {
    if (name !== 'uploaderName' && name !== 'note') {
      return this.fail(badRequest(`${name} is not a field of a file request's upload`, { field: name }));
    }
    if (truncated) return this.fail(badRequest(`Field ${name} is too long`));
    if (this.sender[name] !== null) return this.fail(badRequest(`Field ${name} is given twice`, { field: name }));
    this.sender[name] = value === '' ? null : value;
  }

  private onFile(name: string | undefined, stream: Readable, info: FilePartInfo): void {
    // Failures reach the consumer through its iterator; a stream nobody reads must not crash the process.
    stream.on('error', () => {});
    if (this.failure || this.started || name !== 'file') {
      stream.resume();
      return;
    }
    let share: ShareOptions | null;
    try {
      share = shareOptionsOf(this.fields);
    } catch (err) {
      stream.resume();
      return this.fail(err as Error);
    }
    this.started = true;
    this.fileStream = stream;
    stream.on('limit', () => this.fail(tooLarge(this.maxBytes)));
    this.store({
      content: contentOf(stream, this.formComplete),
      filename: info.filename ?? '',
      mime: info.mime,
      folderId: this.fields.folderId,
      name: this.fields.name,
      share,
      encryptedMetadata: this.fields.encryptedMetadata,
      sender: { ...this.sender },
    }).then(this.settle.resolve, (err: Error) => {
      const first = this.failure ?? err;
      this.fail(err);
      this.settle.reject(first);
    });
  }
}

/** The file's bytes, ending only once the form as a whole has been read successfully. */
function contentOf(stream: Readable, formComplete: Promise<void>): AsyncIterable<Uint8Array> {
  const chunks = streamChunks(stream);
  return {
    [Symbol.asyncIterator]: () => ({
      next: () => chunks.next().then((step) => (step.done ? formComplete.then(() => step) : step)),
      return: () => chunks.return(),
    }),
  };
}
