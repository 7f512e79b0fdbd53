import { getDefaultHighWaterMark, setDefaultHighWaterMark } from 'node:stream';
import { Upload } from 'tus-js-client';
import { generatedBytes } from './multipart.js';

/** The chunk size of the resumable upload the bench measures (one PATCH per chunk). */
export const TUS_CHUNK_BYTES = 32 * 1024 * 1024;

let source: Buffer | null = null;

/**
 * The bytes to send, generated once and kept (1 GiB on a full run). tus-js-client slices a Buffer without copying
 * and sends each chunk at once. Given a Readable instead, it gathers every chunk into a new 32 MiB Buffer before
 * sending it and the server waits meanwhile (50–70 ms of each chunk's 110–130 ms here): that measured the bench's
 * own generator, not Coffer. A file stream was slower still on this machine (tus-js-client pipes it through a
 * progress stream).
 */
export async function tusSource(size: number): Promise<Buffer> {
  if (source?.length !== size) {
    const parts: Buffer[] = [];
    for await (const part of generatedBytes(size)) parts.push(part);
    source = Buffer.concat(parts);
  }
  return source;
}

/**
 * How much tus-js-client hands the socket per write. It writes a Buffer body in slices of the request's
 * highWaterMark, waiting for 'drain' after each, and Node's default is 16 KiB: 65,536 writes and event-loop turns per
 * GiB, which cost the bench process 2.3 s of CPU per GiB more than 1 MiB slices (measured in one process, client and
 * a bare server together: 4.35 s/GiB at 234 MiB/s against 2.02 s/GiB at 516 MiB/s). On two cores that CPU is taken
 * from the server being measured. The raw pipe's client writes 1 MiB blocks, so tus-js-client does too: Node takes
 * a request's highWaterMark from the process default when the request is made (http.request ignores the option),
 * so the default is raised for the length of the upload and put back after.
 */
const CLIENT_WRITE_BYTES = 1024 * 1024;

/**
 * One resumable upload of `data` (from tusSource, made before the clock starts) through tus-js-client, as a client
 * of the service would send it: POST, then a PATCH per chunk. Resolves with the id of the file it became.
 */
export async function tusUpload(origin: string, token: string, data: Buffer, chunkSize = TUS_CHUNK_BYTES): Promise<string> {
  const before = getDefaultHighWaterMark(false);
  setDefaultHighWaterMark(false, CLIENT_WRITE_BYTES);
  try {
    return await sendTus(origin, token, data, chunkSize);
  } finally {
    setDefaultHighWaterMark(false, before);
  }
}

function sendTus(origin: string, token: string, data: Buffer, chunkSize: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const upload = new Upload(data, {
      endpoint: `${origin}/api/upload/tus`,
      chunkSize,
      headers: { authorization: `token ${token}` },
      metadata: { filename: 'bench-resumable.bin', filetype: 'application/octet-stream' },
      // A failure is the bench's to report, not to hide behind a retry.
      retryDelays: null,
      storeFingerprintForResuming: false,
      onSuccess: ({ lastResponse }) => {
        const id = lastResponse.getHeader('X-File-Id');
        if (id) resolve(id);
        else reject(new Error('the last PATCH named no file'));
      },
      onError: reject,
    });
    upload.start();
  });
}
