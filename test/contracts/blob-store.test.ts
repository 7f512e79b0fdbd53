import { randomBytes } from 'node:crypto';
import { readdir, stat, writeFile, mkdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BlobStore } from '../../src/application/ports/blob-store.js';
import { FsBlobStore } from '../../src/adapters/fs-blob-store/fs-blob-store.js';
import { MemoryBlobStore } from '../../src/adapters/memory-blob-store/memory-blob-store.js';
import { tempDir } from '../support/temp.js';
import { blobStoreContract } from './blob-store.contract.js';

const dirOf = new Map<BlobStore, string>();

/** Every regular file below `dir`, relative to it: the raw truth of what the store left on disk. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

async function* chunks(data: Uint8Array, failAfter?: number): AsyncIterable<Uint8Array> {
  for (let i = 0, n = 0; i < data.length; i += 1024, n++) {
    if (n === failAfter) throw new Error('aborted');
    yield data.subarray(i, i + 1024);
  }
}

async function makeFs(): Promise<FsBlobStore> {
  const dir = tempDir('blobs');
  const store = new FsBlobStore({ dir });
  dirOf.set(store, dir);
  return store;
}

blobStoreContract('FsBlobStore', makeFs, (store) => filesUnder(dirOf.get(store)!));
blobStoreContract('MemoryBlobStore', async () => new MemoryBlobStore(), async (store) =>
  (store as MemoryBlobStore).keys().sort(),
);

describe('FsBlobStore on disk', () => {
  it('reads a small blob in one read of its own size, and stops without an empty read past its end', async () => {
    const store = await makeFs();
    const data = randomBytes(64 * 1024);
    const { key } = await store.write(chunks(data));
    // A read stream allocates its whole highWaterMark for every read it does not know to be the last: open-ended, a
    // 64 KiB blob cost two 1 MiB buffers and a copy (docs/BENCHMARKS.md).
    const whole = (await store.read(key)) as AsyncIterable<Uint8Array> & { readableHighWaterMark: number; end: number };
    expect(whole.readableHighWaterMark).toBe(64 * 1024);
    expect(whole.end).toBe(64 * 1024 - 1);
    const pieces: Uint8Array[] = [];
    for await (const piece of whole) pieces.push(piece);
    expect(pieces.map((p) => p.byteLength)).toEqual([64 * 1024]);
    expect(Buffer.concat(pieces).equals(data)).toBe(true);
    const part = (await store.read(key, { start: 10, end: 19 })) as AsyncIterable<Uint8Array> & { readableHighWaterMark: number };
    expect(part.readableHighWaterMark).toBe(10);
  });

  it('lays blobs out as blobs/<first two characters>/<key>', async () => {
    const store = await makeFs();
    const { key } = await store.write(chunks(Buffer.from('hello')));
    expect(await filesUnder(dirOf.get(store)!)).toEqual([join('blobs', key.slice(0, 2), key)]);
  });

  it('leaves neither a temp file nor a blob after a failed write', async () => {
    const store = await makeFs();
    const dir = dirOf.get(store)!;
    await expect(store.write(chunks(randomBytes(200_000), 50))).rejects.toThrow('aborted');
    expect(await filesUnder(join(dir, 'tmp'))).toEqual([]);
    expect(await filesUnder(join(dir, 'blobs'))).toEqual([]);
  });

  it('never resolves a key outside its directory', async () => {
    const outer = tempDir('blobs');
    const dir = join(outer, 'store');
    await mkdir(dir);
    const secret = join(outer, 'secret');
    await writeFile(secret, 'do not touch');
    const store = new FsBlobStore({ dir });
    const attempts = ['../secret', '../../secret', secret, join('..', 'secret'), `${'a'.repeat(32)}/../../../secret`];
    for (const key of attempts) {
      await expect(store.read(key)).rejects.toMatchObject({ code: 'not_found' });
      expect(await store.size(key)).toBeNull();
      await store.delete(key);
    }
    expect((await stat(secret)).size).toBe('do not touch'.length);
  });

  it('accepts only keys of its own shape, even when a matching-looking file exists', async () => {
    const store = await makeFs();
    const dir = dirOf.get(store)!;
    const fake = 'AB' + 'c'.repeat(30);
    await mkdir(join(dir, 'blobs', 'AB'), { recursive: true });
    await writeFile(join(dir, 'blobs', 'AB', fake), 'planted');
    expect(await store.size(fake)).toBeNull();
  });
});
