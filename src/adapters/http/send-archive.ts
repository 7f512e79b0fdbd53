import { Readable } from 'node:stream';
import type { Context } from 'koa';
import { ZipFile } from 'yazl';
import type { ArchiveEntry, ShareArchive } from '../../application/contract.js';
import { contentDispositionOf } from './header-text.js';
import type { HttpLogger } from './http-logger.js';

const asStream = (bytes: AsyncIterable<Uint8Array>): Readable =>
  bytes instanceof Readable ? bytes : Readable.from(bytes);

/** Opens an entry's bytes only when the archive reaches it, so one file at a time is open. */
function addEntry(zip: ZipFile, entry: ArchiveEntry): void {
  // STORE: shared files are mostly compressed already (media, archives), and deflate would cost more CPU than the
  // bytes it saves; it also lets the archive's exact length be known before the first byte.
  const options = { compress: false, size: entry.size, mtime: entry.modified };
  zip.addReadStreamLazy(entry.path, options, (cb) => {
    entry.open().then(
      (bytes) => cb(null, asStream(bytes)),
      (err: unknown) => cb(err, undefined as unknown as NodeJS.ReadableStream),
    );
  });
}

/** The archive's exact length: known up front because every entry is stored with its size. -1 if not. */
function finish(zip: ZipFile): Promise<number> {
  return new Promise((resolve) => {
    const end = zip.end as (options: object, sized: (size: number) => void) => void;
    end.call(zip, {}, resolve);
  });
}

/**
 * Streams the archive as yazl builds it: no temporary file, no archive in memory, each file's bytes piped through
 * with backpressure. A file that fails mid-way ends the response early (the client sees a truncated download,
 * never a valid-looking archive with a hole in it).
 */
export async function sendArchive(ctx: Context, archive: ShareArchive, logger: HttpLogger): Promise<void> {
  const zip = new ZipFile();
  for (const folder of archive.folders) zip.addEmptyDirectory(folder);
  for (const entry of archive.files) addEntry(zip, entry);
  const size = await finish(zip);
  const body = zip.outputStream as Readable;
  zip.on('error', (err: unknown) => {
    logger.error({ err, path: ctx.path }, 'archive failed while streaming');
    body.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  ctx.set({
    'Content-Type': 'application/zip',
    'Content-Disposition': contentDispositionOf(`${archive.name}.zip`, 'attachment'),
    'Content-Security-Policy': 'sandbox',
    'Cache-Control': 'private, no-store',
  });
  if (size >= 0) ctx.set('Content-Length', String(size));
  ctx.status = 200;
  if (ctx.method === 'HEAD') {
    body.destroy();
    return;
  }
  ctx.body = body;
}
