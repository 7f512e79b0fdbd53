import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { streamChunks } from './stream-chunks.js';
import { DomainError, badRequest } from '../../domain/index.js';
import type { ShareOptions } from '../../application/contract.js';
import {
  UPLOAD_FIELDS,
  isUploadField,
  noUploadFields,
  setUploadField,
  shareOptionsOf,
  type UploadFields,
} from './upload-fields.js';

export interface UploadPart {
  content: AsyncIterable<Uint8Array>;
  filename: string;
  mime: string | undefined;
  folderId: string | null;
  name: string | null;
  /** The share to make with the file (`share=true`), with its options; null: none. */
  share: ShareOptions | null;
}

const FIELD_LIMIT = 4 * 1024;

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
): Promise<T> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      // Browsers and fetch() send file names as raw UTF-8, not the latin1 busboy assumes.
      defParamCharset: 'utf8',
      limits: { files: 1, fields: 10, parts: 12, fieldSize: FIELD_LIMIT, fileSize: maxBytes + 1 },
    });
  } catch {
    return Promise.reject(badRequest('Upload must be multipart/form-data with a boundary'));
  }
  return new MultipartUpload(req, parser, maxBytes, store).result;
}

/** One upload on its way: the fields read so far, its one file part, and the first failure, which wins. */
class MultipartUpload<T> {
  readonly result: Promise<T>;
  private settle!: { resolve: (value: T) => void; reject: (err: Error) => void };
  private readonly fields: UploadFields = noUploadFields();
  private started = false;
  private failure: Error | null = null;
  private fileStream: Readable | null = null;
  /** Settles once busboy has read the whole form; the file's content ends only then. */
  private readonly formComplete: Promise<void>;
  private form!: { done: () => void; failed: (err: Error) => void };

  constructor(
    private readonly req: IncomingMessage,
    private readonly bb: busboy.Busboy,
    private readonly maxBytes: number,
    private readonly store: (part: UploadPart) => Promise<T>,
  ) {
    this.result = new Promise<T>((resolve, reject) => (this.settle = { resolve, reject }));
    this.formComplete = new Promise<void>((done, failed) => (this.form = { done, failed }));
    this.formComplete.catch(() => {});

    bb.on('field', (name, value, info) => this.onField(name, value, info.valueTruncated));
    bb.on('file', (name, stream, info) => this.onFile(name, stream, info));
    bb.on('finish', () => {
      if (this.started) this.form.done();
      else this.fail(badRequest('The form has no file part named "file"'));
    });
    bb.on('error', () => this.fail(badRequest('Malformed multipart body')));
    bb.on('filesLimit', () => this.fail(badRequest('Only one file per upload')));
    bb.on('fieldsLimit', () => this.fail(badRequest('Too many form fields')));
    bb.on('partsLimit', () => this.fail(badRequest('Too many form parts')));
    // A client that goes away is its own failure, not a server fault: nobody reads the answer, and nothing is logged.
    const aborted = () => this.fail(badRequest('The client aborted the upload'));
    req.on('error', aborted);
    req.on('close', () => {
      if (!req.complete) aborted();
    });
    req.pipe(bb);
  }

  /** Stops reading the form but drains the request, so the client still gets the error response. */
  private fail(err: Error): void {
    if (this.failure) return;
    this.failure = err;
    this.form.failed(err);
    this.fileStream?.destroy(err);
    this.req.unpipe(this.bb);
    this.req.resume();
    // busboy must not be torn down from inside its own event callbacks
    setImmediate(() => this.bb.destroy());
    if (!this.started) this.settle.reject(err);
  }

  private onField(name: string, value: string, truncated: boolean): void {
    if (this.failure) return;
    if (this.started) {
      return this.fail(badRequest(`Fields ${Object.keys(UPLOAD_FIELDS).join(', ')} must come before the file part`));
    }
    // As with JSON bodies, a field the upload does not know is refused rather than silently dropped.
    if (!isUploadField(name)) return this.fail(badRequest(`${name} is not a field of an upload`, { field: name }));
    if (truncated) return this.fail(badRequest(`Field ${name} is too long`));
    try {
      setUploadField(this.fields, name, value);
    } catch (err) {
      this.fail(err as Error);
    }
  }

  private onFile(name: string, stream: Readable, info: busboy.FileInfo): void {
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
      mime: info.mimeType,
      folderId: this.fields.folderId,
      name: this.fields.name,
      share,
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
