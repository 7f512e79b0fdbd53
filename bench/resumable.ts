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
 * One resumable upload of `data` (from tusSource, made before the clock starts) through tus-js-client, as a client
 * of the service would send it: POST, then a PATCH per chunk. Resolves with the id of the file it became.
 */
export function tusUpload(origin: string, token: string, data: Buffer, chunkSize = TUS_CHUNK_BYTES): Promise<string> {
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
