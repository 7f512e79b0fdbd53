import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { badRequest } from '../../../domain/index.js';
import { checksumMismatch } from './tus-headers.js';

/**
 * The bytes of one append, straight from the request. A client that goes away mid-append keeps what arrived: tus
 * resumes from the offset the server reports, so the bytes received before the cut are committed, as the protocol
 * recommends. With a checksum, the whole body must vouch for itself, so a cut or a mismatch stores nothing.
 */
export async function* appendBody(req: IncomingMessage, checksum: Buffer | null): AsyncIterable<Uint8Array> {
  const hash = checksum && createHash('sha1');
  try {
    for await (const chunk of req) {
      hash?.update(chunk as Buffer);
      yield chunk as Buffer;
    }
  } catch {
    if (checksum) throw badRequest('The client aborted the append');
    return;
  }
  if (hash && checksum && !hash.digest().equals(checksum)) throw checksumMismatch();
}
