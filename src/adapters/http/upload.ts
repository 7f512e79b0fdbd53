import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { DomainError, badRequest } from '../../domain/index.js';
import { parseId } from './validation.js';

export interface UploadPart {
  content: AsyncIterable<Uint8Array>;
  filename: string;
  mime: string | undefined;
  folderId: string | null;
  name: string | null;
}

const FIELD_LIMIT = 4 * 1024;

const tooLarge = (max: number) =>
  new DomainError('payload_too_large', `The file exceeds the upload limit of ${max} bytes`, { maxBytes: max });

/**
 * Streams the `file` part of a multipart/form-data request into `store`, never buffering it.
 * The fields `folderId` and `name` must come before the `file` part: the file is stored while it arrives, so a
 * field after it is a bad_request. The content only ends once the whole form has been read, so a request that
 * turns out malformed, too large or aborted after the file part still fails the upload (and the core cleans up).
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
  const bb = parser;

  return new Promise<T>((resolve, reject) => {
    const fields: { folderId: string | null; name: string | null } = { folderId: null, name: null };
    let started = false;
    let failure: Error | null = null;
    let fileStream: Readable | null = null;
    let formDone!: () => void;
    let formFailed!: (err: Error) => void;
    const formComplete = new Promise<void>((res, rej) => {
      formDone = res;
      formFailed = rej;
    });
    formComplete.catch(() => {});

    // Stops reading the form but drains the request, so the client still gets the error response.
    const fail = (err: Error) => {
      if (failure) return;
      failure = err;
      formFailed(err);
      fileStream?.destroy(err);
      req.unpipe(bb);
      req.resume();
      // busboy must not be torn down from inside its own event callbacks
      setImmediate(() => bb.destroy());
      if (!started) reject(err);
    };

    bb.on('field', (name, value, info) => {
      if (failure) return;
      if (started) return fail(badRequest('Fields folderId and name must come before the file part'));
      if (name !== 'folderId' && name !== 'name') return;
      if (info.valueTruncated) return fail(badRequest(`Field ${name} is too long`));
      try {
        fields[name] = value === '' ? null : name === 'folderId' ? parseId(value, 'folderId') : value;
      } catch (err) {
        fail(err as Error);
      }
    });

    bb.on('file', (name, stream, info) => {
      // Failures reach the consumer through its iterator; a stream nobody reads must not crash the process.
      stream.on('error', () => {});
      if (failure || started || name !== 'file') {
        stream.resume();
        return;
      }
      started = true;
      fileStream = stream;
      stream.on('limit', () => fail(tooLarge(maxBytes)));
      store({
        content: contentOf(stream, formComplete),
        filename: info.filename ?? '',
        mime: info.mimeType,
        ...fields,
      }).then(resolve, (err: Error) => {
        const first = failure ?? err;
        fail(err);
        reject(first);
      });
    });

    bb.on('finish', () => {
      if (started) formDone();
      else fail(badRequest('The form has no file part named "file"'));
    });
    bb.on('error', () => fail(badRequest('Malformed multipart body')));
    bb.on('filesLimit', () => fail(badRequest('Only one file per upload')));
    bb.on('fieldsLimit', () => fail(badRequest('Too many form fields')));
    bb.on('partsLimit', () => fail(badRequest('Too many form parts')));
    // A client that goes away is its own failure, not a server fault: nobody reads the answer, and nothing is logged.
    const aborted = () => fail(badRequest('The client aborted the upload'));
    req.on('error', aborted);
    req.on('close', () => {
      if (!req.complete) aborted();
    });
    req.pipe(bb);
  });
}

/** The file's bytes, ending only once the form as a whole has been read successfully. */
async function* contentOf(stream: Readable, formComplete: Promise<void>): AsyncIterable<Uint8Array> {
  for await (const chunk of stream) yield chunk as Buffer;
  await formComplete;
}
