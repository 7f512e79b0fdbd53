import { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { ShareArchive } from '../../../application/contract.js';
import { contentDispositionOf } from './content-disposition.js';
import { ZipStream } from './zip/zip-stream.js';
import { countSent } from './sent-bytes.js';

/**
 * Streams the archive as it is built: no temporary file, no archive in memory, each file's bytes piped through with
 * backpressure. Stored entries make its exact length known up front. A file that fails mid-way ends the response
 * early (the client sees a truncated download, never a valid-looking archive with a hole in it).
 */
export function sendArchive(ctx: Context, archive: ShareArchive): void {
  const zip = new ZipStream(archive);
  ctx.set({
    'Content-Type': 'application/zip',
    'Content-Disposition': contentDispositionOf(`${archive.name}.zip`, 'attachment'),
    'Content-Security-Policy': 'sandbox',
    'Cache-Control': 'private, no-store',
  });
  ctx.status = 200;
  if (ctx.method !== 'HEAD') {
    if (archive.sent) countSent(ctx, archive.sent);
    ctx.body = Readable.from(zip.bytes(), { objectMode: false });
  }
  ctx.set('Content-Length', String(zip.layout.total));
}
