import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { badRequest } from '../../../../domain/index.js';
import { streamChunks } from '../stream-chunks.js';
import { checksumMismatch } from './tus-headers.js';

/**
 * The bytes of one append, straight from the request. A client that goes away mid-append keeps what arrived: tus
 * resumes from the offset the server reports, so the bytes received before the cut are committed, as the protocol
 * recommends. With a checksum, the whole body must vouch for itself, so a cut or a mismatch stores nothing.
 * A consumer that stops early (a limit, a conflict) leaves the rest of the body to drain, so the client still hears
 * why; the pace rules bound how long that may take.
 */
export async function* appendBody(req: IncomingMessage, checksum: Buffer | null): AsyncIterable<Uint8Array> {
  const hash = checksum && createHash('sha1');
  let read = false;
  try {
    for await (const chunk of streamChunks(req, { destroyOnReturn: false })) {
      hash?.update(chunk as Buffer);
      yield chunk as Buffer;
    }
    read = true;
  } catch {
    if (checksum) throw badRequest('The client aborted the append');
    return;
  } finally {
    if (!read) req.resume();
  }
  if (hash && checksum && !hash.digest().equals(checksum)) throw checksumMismatch();
}
