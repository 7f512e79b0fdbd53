import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { inject, injectable } from 'inversify';
import type {
  BlobEntry,
  BlobPiece,
  BlobStore,
  ByteRange,
  KeyOptions,
  WriteOptions,
} from '../../application/ports/blob-store.js';
import { blobNotFound, isErrno, pathless, removeQuietly } from './fs-errors.js';
import { entriesOf, modifiedAt } from './fs-walk.js';
import { writerGone, writerPrefix } from './writer.js';
import { joinedRead, joinedSize, partName } from './joined-blob.js';
import { FileWriteBack, writeAll } from './write-back.js';

export const FsBlobStoreOptions = Symbol('FsBlobStoreOptions');
export interface FsBlobStoreOptions {
  dir: string;
}

// Hex rather than base64url: keys differing only in case would collide on case-insensitive file systems.
const KEY_PATTERN = /^[0-9a-f]{32}$/;
const SHARD_PATTERN = /^[0-9a-f]{2}$/;
const freshKey = () => randomBytes(16).toString('hex');

/** The key a write or join was given (from newKey), checked, or a fresh one. */
function keyOf(options: KeyOptions): string {
  if (options.key === undefined) return freshKey();
  if (!KEY_PATTERN.test(options.key)) throw new RangeError(`Not a key of this store: ${JSON.stringify(options.key)}`);
  return options.key;
}
const READ_CHUNK_BYTES = 1024 * 1024;

function assertRange(range: ByteRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`Invalid byte range ${start}-${end}`);
  }
}

/**
 * Blobs as files under `<dir>/blobs/<first two key characters>/<key>`; a joined blob is a directory there holding its
 * parts, named by their order (join moves them in, nothing is copied). Every key is generated here and checked
 * against the one pattern before it touches a path, so no string from outside can ever name a file.
 */
@injectable()
export class FsBlobStore implements BlobStore {
  private readonly blobsDir: string;
  private readonly tmpDir: string;

  constructor(@inject(FsBlobStoreOptions) options: FsBlobStoreOptions) {
    this.blobsDir = join(options.dir, 'blobs');
    this.tmpDir = join(options.dir, 'tmp');
  }

  newKey(): string {
    return freshKey();
  }

  async write(content: AsyncIterable<BlobPiece>, options: WriteOptions = {}): Promise<{ key: string; size: number }> {
    const durable = options.durable !== false;
    const key = keyOf(options);
    await mkdir(this.tmpDir, { recursive: true }).catch((err: unknown) => {
      throw pathless(err, 'write a blob');
    });
    const tmp = join(this.tmpDir, `${writerPrefix()}-${randomBytes(12).toString('hex')}`);
    const final = this.pathOf(key);
    let size = 0;
    let renamed = false;
    let handle: FileHandle | null = null;
    // The disk's write-back started ahead of need; the handle closes only once none runs.
    let writeBack: FileWriteBack | null = null;
    try {
      handle = await open(tmp, 'wx');
      writeBack = new FileWriteBack(handle);
      // Written straight through the handle, a batch's pieces in one call: no stream in between, and no copy.
      for await (const piece of content) {
        const written = await writeAll(handle, piece);
        size += written;
        writeBack.wrote(written);
      }
      if (durable) {
        // A head start still waiting its turn is called off: the flush below does its work now.
        await writeBack.callOff();
        await handle.sync();
        await handle.close();
      } else {
        // Not waited for: the bytes start for the disk soon, and the handle closes once they are there.
        writeBack.start();
        const file = handle;
        void writeBack.settled().finally(() => file.close().catch(() => undefined));
      }
      handle = null;
      await mkdir(join(final, '..'), { recursive: true });
      await rename(tmp, final);
      renamed = true;
      if (durable) await this.syncDir(join(final, '..'));
      return { key, size };
    } catch (err) {
      if (handle !== null) {
        await writeBack?.callOff();
        await handle.close().catch(() => undefined);
      }
      await removeQuietly(tmp);
      if (renamed) await removeQuietly(final);
      throw pathless(err, 'write a blob');
    }
  }

  /**
   * Each file's bytes, then each directory that names one, flushed; all files at once, so the disk sees every flush
   * together rather than one after another.
   */
  async makeDurable(keys: readonly string[]): Promise<void> {
    const paths = keys.map((key) => this.pathFor(key));
    if (paths.some((path) => path === null)) throw blobNotFound();
    try {
      await Promise.all((paths as string[]).map((path) => this.syncFile(path)));
      const dirs = new Set((paths as string[]).map((path) => join(path, '..')));
      await Promise.all([...dirs].map((dir) => this.syncDir(dir)));
    } catch (err) {
      throw isErrno(err, 'ENOENT') ? blobNotFound() : pathless(err, 'make blobs durable');
    }
  }

  /** Moves the parts under the new key in order; each was made durable before, the renames are synced here. */
  async join(keys: readonly string[], options: KeyOptions = {}): Promise<{ key: string; size: number }> {
    const paths = keys.map((key) => this.pathFor(key));
    if (paths.some((path) => path === null)) throw blobNotFound();
    const key = keyOf(options);
    const dir = this.pathOf(key);
    let size = 0;
    try {
      await mkdir(dir, { recursive: true });
      for (const [index, from] of (paths as string[]).entries()) {
        const to = join(dir, partName(index));
        await rename(from, to).catch((err: unknown) => {
          throw isErrno(err, 'ENOENT') ? blobNotFound() : err;
        });
        size += (await stat(to)).size;
      }
      await this.syncDir(dir);
      await this.syncDir(join(dir, '..'));
      return { key, size };
    } catch (err) {
      throw pathless(err, 'join blobs');
    }
  }

  async read(key: string, range?: ByteRange): Promise<AsyncIterable<Uint8Array>> {
    if (range) assertRange(range);
    const path = this.pathFor(key);
    if (path === null) throw blobNotFound();
    const kind = await stat(path).catch((err: unknown) => {
      throw isErrno(err, 'ENOENT') ? blobNotFound() : pathless(err, 'read a blob');
    });
    if (kind.isDirectory()) return joinedRead(path, range);
    // Opening before returning turns a missing blob into not_found now, and keeps the bytes readable even if the
    // blob is deleted while the stream is being consumed.
    const handle = await open(path, 'r').catch((err: unknown) => {
      throw isErrno(err, 'ENOENT') ? blobNotFound() : pathless(err, 'read a blob');
    });
    // Reads of up to 1 MiB instead of the default 64 KiB: a large download costs a sixteenth of the read calls and
    // chunks. The stream is always given its end: a read stream allocates a whole `highWaterMark` for each read it
    // does not know to be the last, so a 64 KiB blob read open-ended cost 1 MiB, a 64 KiB copy and a second 1 MiB for
    // the empty read that found the end, and at a few hundred small downloads a second that memory outside the heap
    // set off a full garbage collection every 60 to 100 ms.
    const { start, end } = range ?? { start: 0, end: kind.size - 1 };
    if (end < start) {
      // An empty blob: nothing to read (a read stream takes no end before its start).
      await handle.close();
      return (async function* () {})();
    }
    return handle.createReadStream({ highWaterMark: Math.min(READ_CHUNK_BYTES, end - start + 1), start, end });
  }

  async size(key: string): Promise<number | null> {
    const path = this.pathFor(key);
    if (path === null) return null;
    try {
      const found = await stat(path);
      return found.isDirectory() ? await joinedSize(path) : found.size;
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return null;
      throw pathless(err, 'read a blob');
    }
  }

  async delete(key: string): Promise<void> {
    const path = this.pathFor(key);
    if (path === null) return;
    try {
      // A joined blob is a directory of parts; `force` makes a missing blob no error.
      await rm(path, { recursive: true, force: true });
    } catch (err) {
      throw pathless(err, 'delete a blob');
    }
  }

  /** Walks blobs/<shard>/<key>; the modification time is when the bytes were written, since a blob never changes. */
  async *list(): AsyncIterable<BlobEntry> {
    for (const shard of await entriesOf(this.blobsDir)) {
      if (!SHARD_PATTERN.test(shard)) continue;
      for (const key of await entriesOf(join(this.blobsDir, shard))) {
        if (!KEY_PATTERN.test(key) || !key.startsWith(shard)) continue;
        const modified = await modifiedAt(this.pathOf(key));
        if (modified !== null) yield { key, createdAt: modified };
      }
    }
  }

  /**
   * Temporary files of writes that never finished: a crash (or a kill) between opening and renaming. Those whose
   * writer is known to be gone go at once; others once they are older than `before`.
   */
  async purgeIncomplete(before: Date): Promise<number> {
    let removed = 0;
    for (const name of await entriesOf(this.tmpDir)) {
      const path = join(this.tmpDir, name);
      const modified = await modifiedAt(path);
      if (modified === null || (modified >= before && !writerGone(name))) continue;
      await unlink(path).then(
        () => removed++,
        (err: unknown) => {
          if (!isErrno(err, 'ENOENT')) throw pathless(err, 'remove a temporary file');
        },
      );
    }
    return removed;
  }

  /** Temporary files whose writer on this host is gone (a process that no longer runs). */
  async purgeAbandoned(): Promise<number> {
    return this.purgeIncomplete(new Date(0));
  }

  private pathFor(key: string): string | null {
    return KEY_PATTERN.test(key) ? this.pathOf(key) : null;
  }

  private pathOf(key: string): string {
    return join(this.blobsDir, key.slice(0, 2), key);
  }

  private async syncFile(path: string): Promise<void> {
    const handle = await open(path, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /** A rename is durable only once its directory entry is; Windows cannot open directories, so it is skipped. */
  private async syncDir(dir: string): Promise<void> {
    if (process.platform === 'win32') return;
    await this.syncFile(dir);
  }
}
