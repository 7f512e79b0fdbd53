import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ByteRange } from '../../application/ports/blob-store.js';

const READ_CHUNK_BYTES = 1024 * 1024;

/** Parts are named by their position, zero-padded, so the directory's sorted listing is their order. */
export const partName = (index: number) => String(index).padStart(6, '0');

async function partsOf(dir: string): Promise<string[]> {
  return (await readdir(dir)).sort().map((name) => join(dir, name));
}

export async function joinedSize(dir: string): Promise<number> {
  let size = 0;
  for (const part of await partsOf(dir)) size += (await stat(part)).size;
  return size;
}

/**
 * Streams a joined blob's parts in order, or the inclusive range of them. Parts are opened one at a time (a blob may
 * have thousands), so unlike a single file a joined blob deleted while it is read fails the rest of the read.
 */
export async function joinedRead(dir: string, range?: ByteRange): Promise<AsyncIterable<Uint8Array>> {
  const parts = await partsOf(dir);
  return (async function* () {
    let position = 0;
    for (const part of parts) {
      const handle = await open(part, 'r');
      const { size } = await handle.stat();
      const first = position;
      position += size;
      const start = range ? Math.max(0, range.start - first) : 0;
      const end = range ? Math.min(size - 1, range.end - first) : size - 1;
      if (size === 0 || start > end) {
        await handle.close();
        if (range && first > range.end) return;
        continue;
      }
      yield* handle.createReadStream({ start, end, highWaterMark: READ_CHUNK_BYTES });
    }
  })();
}
