import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BlobPiece, BlobStore } from '../../src/application/ports/blob-store.js';
import { DomainError } from '../../src/domain/errors.js';

/** Everything the adapter holds in its raw storage (files, map entries), read without going through the port. */
export type RawListing = (store: BlobStore) => Promise<string[]>;

async function* chunked(data: Uint8Array, size: number): AsyncIterable<Uint8Array> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

async function* failingAfter(data: Uint8Array, chunks: number, error: Error): AsyncIterable<Uint8Array> {
  let sent = 0;
  for await (const chunk of chunked(data, 1024)) {
    if (sent++ === chunks) throw error;
    yield chunk;
  }
}

async function readAll(iterable: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of iterable) parts.push(Buffer.from(part));
  return Buffer.concat(parts);
}

const digest = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

async function expectNotFound(promise: Promise<unknown>): Promise<void> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  expect((err as DomainError).code).toBe('not_found');
}

const GARBAGE_KEYS = ['../etc/passwd', '', 'x'.repeat(500), '..', '/', '.', 'blobs', '%2e%2e%2fetc', 'ab/../../x'];

/** The behaviour every BlobStore adapter must show. `raw`, when given, lists what the adapter really holds. */
export function blobStoreContract(name: string, make: () => Promise<BlobStore>, raw?: RawListing): void {
  describe(`BlobStore contract: ${name}`, () => {
    it('round-trips several MiB written in small chunks', async () => {
      const store = await make();
      const data = randomBytes(5 * 1024 * 1024 + 123);
      const { key, size } = await store.write(chunked(data, 1000));
      expect(size).toBe(data.length);
      expect(await store.size(key)).toBe(data.length);
      expect(digest(await readAll(await store.read(key)))).toBe(digest(data));
    });

    it('writes batches of pieces in order, empty pieces and empty batches included', async () => {
      const store = await make();
      const data = randomBytes(3 * 1024 * 1024 + 77);
      // Batches of 1 to 40 uneven pieces, as a storage meter hands on what it gathered; a few pieces are empty.
      async function* batches(): AsyncIterable<BlobPiece> {
        let at = 0;
        for (let n = 1; at < data.length; n = (n % 40) + 1) {
          const batch: Uint8Array[] = [new Uint8Array(0)];
          for (let i = 0; i < n && at < data.length; i++) {
            const size = 1 + ((at * 7 + i * 4093) % 65_536);
            batch.push(data.subarray(at, at + size));
            at += size;
          }
          yield batch;
          if (n % 7 === 0) yield [];
          if (n % 5 === 0) yield data.subarray(at, at);
        }
      }
      const { key, size } = await store.write(batches());
      expect(size).toBe(data.length);
      expect(digest(await readAll(await store.read(key)))).toBe(digest(data));
    });

    it('stores an empty blob', async () => {
      const store = await make();
      const { key, size } = await store.write(chunked(new Uint8Array(0), 10));
      expect(size).toBe(0);
      expect(await store.size(key)).toBe(0);
      expect((await readAll(await store.read(key))).length).toBe(0);
    });

    it('reads inclusive ranges: first byte, middle, last byte, past the end', async () => {
      const store = await make();
      const data = randomBytes(100_000);
      const { key } = await store.write(chunked(data, 7_777));
      // Compared as hex so a mismatch still shows, without a slow element-by-element deep equality.
      const range = async (start: number, end: number) =>
        (await readAll(await store.read(key, { start, end }))).toString('hex');
      const hex = (from: number, to?: number) => data.subarray(from, to).toString('hex');
      expect(await range(0, 0)).toBe(hex(0, 1));
      expect(await range(12_345, 67_890)).toBe(hex(12_345, 67_891));
      expect(await range(99_999, 99_999)).toBe(hex(99_999));
      expect(await range(0, 99_999)).toBe(hex(0));
      expect(await range(90_000, 200_000)).toBe(hex(90_000));
    });

    it('rejects a malformed range as a bug, not as not_found', async () => {
      const store = await make();
      const { key } = await store.write(chunked(Buffer.from('hello'), 2));
      await expect(store.read(key, { start: 3, end: 1 })).rejects.toThrow(RangeError);
      await expect(store.read(key, { start: -1, end: 1 })).rejects.toThrow(RangeError);
    });

    it('deletes idempotently, and a deleted blob is gone', async () => {
      const store = await make();
      const { key } = await store.write(chunked(Buffer.from('bye'), 1));
      await store.delete(key);
      expect(await store.size(key)).toBeNull();
      await expectNotFound(store.read(key));
      await expect(store.delete(key)).resolves.toBeUndefined();
      if (raw) expect(await raw(store)).toEqual([]);
    });

    it('answers not_found / null / no-op for unknown and garbage keys', async () => {
      const store = await make();
      const { key } = await store.write(chunked(Buffer.from('keep me'), 3));
      const unknown = key.replace(/^./, (c) => (c === '0' ? '1' : '0'));
      for (const bad of [unknown, ...GARBAGE_KEYS]) {
        await expectNotFound(store.read(bad));
        expect(await store.size(bad)).toBeNull();
        await expect(store.delete(bad)).resolves.toBeUndefined();
      }
      expect((await readAll(await store.read(key))).toString()).toBe('keep me');
    });

    it('generates distinct keys that are safe in URLs and paths', async () => {
      const store = await make();
      const keys = new Set<string>();
      for (let i = 0; i < 50; i++) keys.add((await store.write(chunked(Buffer.from('same'), 4))).key);
      expect(keys.size).toBe(50);
      for (const key of keys) {
        expect(key).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
        expect(encodeURIComponent(key)).toBe(key);
      }
    });

    it('rejects with the error the content threw and leaves nothing behind', async () => {
      const store = await make();
      const before = raw ? await raw(store) : [];
      const boom = new Error('client went away');
      await expect(store.write(failingAfter(randomBytes(300_000), 100, boom))).rejects.toBe(boom);
      const immediate = new Error('limit');
      await expect(store.write(failingAfter(randomBytes(10), 0, immediate))).rejects.toBe(immediate);
      if (raw) expect(await raw(store)).toEqual(before);
    });

    it('keeps concurrent writes apart', async () => {
      const store = await make();
      const inputs = Array.from({ length: 20 }, (_, i) => randomBytes(50_000 + i * 997));
      const written = await Promise.all(inputs.map((data) => store.write(chunked(data, 4096))));
      expect(new Set(written.map((w) => w.key)).size).toBe(inputs.length);
      await Promise.all(
        written.map(async ({ key, size }, i) => {
          expect(size).toBe(inputs[i]!.length);
          expect(digest(await readAll(await store.read(key)))).toBe(digest(inputs[i]!));
        }),
      );
      if (raw) expect((await raw(store)).length).toBe(inputs.length);
    });

    it('lists every complete blob once, with when it was written, and nothing deleted or failed', async () => {
      const store = await make();
      // Some stores keep times in whole seconds (file systems, ObjectIds); the margin covers the rounding.
      const before = Date.now() - 2000;
      const kept = await Promise.all(['a', 'bb', 'ccc'].map((text) => store.write(chunked(Buffer.from(text), 1))));
      const gone = await store.write(chunked(Buffer.from('gone'), 2));
      await store.delete(gone.key);
      await expect(store.write(failingAfter(randomBytes(5000), 2, new Error('cut')))).rejects.toThrow('cut');
      const after = Date.now() + 2000;
      const listed: { key: string; createdAt: Date }[] = [];
      for await (const entry of store.list()) listed.push(entry);
      expect(listed.map((e) => e.key).sort()).toEqual(kept.map((w) => w.key).sort());
      for (const { createdAt } of listed) {
        expect(createdAt).toBeInstanceOf(Date);
        expect(createdAt.getTime()).toBeGreaterThanOrEqual(before);
        expect(createdAt.getTime()).toBeLessThanOrEqual(after);
      }
    });

    it('lists nothing when empty, and keeps listing while blobs are deleted under it', async () => {
      const store = await make();
      for await (const entry of store.list()) throw new Error(`unexpected blob ${entry.key}`);
      const written = await Promise.all([1, 2, 3, 4].map((n) => store.write(chunked(Buffer.alloc(n, n), 1))));
      const seen: string[] = [];
      for await (const { key } of store.list()) {
        seen.push(key);
        await Promise.all(written.map((w) => store.delete(w.key)));
      }
      expect(seen.length).toBeGreaterThanOrEqual(1);
      expect(seen.length).toBeLessThanOrEqual(4);
    });

    it('purges no complete blob, however old the cutoff makes it look', async () => {
      const store = await make();
      const { key } = await store.write(chunked(Buffer.from('complete'), 3));
      expect(await store.purgeIncomplete(new Date(Date.now() + 3_600_000))).toBe(0);
      expect((await readAll(await store.read(key))).toString()).toBe('complete');
      if (raw) expect((await raw(store)).length).toBe(1);
    });

    it('hands out copies: changing written or read bytes does not change the blob', async () => {
      const store = await make();
      const data = Buffer.from('immutable');
      const { key } = await store.write(chunked(data, 3));
      data.fill(0);
      for await (const part of await store.read(key)) part.fill(0);
      expect((await readAll(await store.read(key))).toString()).toBe('immutable');
    });

    it('joins blobs into one, in order, consuming them: whole and ranged reads, size, list and delete', async () => {
      const store = await make();
      const pieces = [randomBytes(70_000), randomBytes(0), randomBytes(1), randomBytes(130_001)];
      const keys: string[] = [];
      for (const piece of pieces) keys.push((await store.write(chunked(piece, 9_999))).key);
      const all = Buffer.concat(pieces);
      const { key, size } = await store.join(keys);
      expect(size).toBe(all.length);
      expect(await store.size(key)).toBe(all.length);
      expect(digest(await readAll(await store.read(key)))).toBe(digest(all));
      const range = async (start: number, end: number) =>
        (await readAll(await store.read(key, { start, end }))).toString('hex');
      // Within the first part, across every boundary, the one-byte part alone, within the last part.
      expect(await range(5, 69_999)).toBe(all.subarray(5, 70_000).toString('hex'));
      expect(await range(69_990, 70_010)).toBe(all.subarray(69_990, 70_011).toString('hex'));
      expect(await range(70_000, 70_000)).toBe(all.subarray(70_000, 70_001).toString('hex'));
      expect(await range(150_000, 200_001)).toBe(all.subarray(150_000).toString('hex'));
      for (const part of keys) expect(await store.size(part)).toBeNull();
      const listed: string[] = [];
      for await (const entry of store.list()) listed.push(entry.key);
      expect(listed).toEqual([key]);
      await store.delete(key);
      expect(await store.size(key)).toBeNull();
      await expectNotFound(store.read(key));
      if (raw) expect(await raw(store)).toEqual([]);
    });

    it('refuses to join an unknown blob', async () => {
      const store = await make();
      const { key } = await store.write(chunked(Buffer.from('kept'), 2));
      await expectNotFound(store.join([key, GARBAGE_KEYS[0]!]));
    });

    it('writes unflushed when asked, then makes those blobs durable together; unknown keys are not_found', async () => {
      const store = await make();
      const data = [randomBytes(300_000), randomBytes(17)];
      const written = await Promise.all(data.map((bytes) => store.write(chunked(bytes, 4096), { durable: false })));
      for (const [i, { key, size }] of written.entries()) {
        expect(size).toBe(data[i]!.length);
        // Its size is what a resume checks its parts against: the bytes written, before any flush.
        expect(await store.size(key)).toBe(data[i]!.length);
      }
      const keys = written.map((blob) => blob.key);
      await store.makeDurable(keys);
      await store.makeDurable([]);
      for (const [i, key] of keys.entries()) {
        expect(digest(await readAll(await store.read(key)))).toBe(digest(data[i]!));
      }
      for (const garbage of GARBAGE_KEYS) await expectNotFound(store.makeDurable([keys[0]!, garbage]));
      await store.delete(keys[1]!);
      await expectNotFound(store.makeDurable(keys));
      const joined = await store.join([keys[0]!]);
      expect(await store.size(joined.key)).toBe(data[0]!.length);
    });

    it('writes and joins under keys it handed out before any byte was written', async () => {
      const store = await make();
      const [a, b, c] = [store.newKey(), store.newKey(), store.newKey()];
      expect(new Set([a, b, c]).size).toBe(3);
      const listed = async () => {
        const keys: string[] = [];
        for await (const entry of store.list()) keys.push(entry.key);
        return keys;
      };
      // Handing out a key stores nothing.
      expect(await listed()).toEqual([]);
      expect(await store.size(a)).toBeNull();
      const first = await store.write(chunked(randomBytes(10_000), 4096), { key: a });
      const second = await store.write(chunked(randomBytes(5_000), 4096), { durable: false, key: b });
      expect([first.key, second.key]).toEqual([a, b]);
      const joined = await store.join([a, b], { key: c });
      expect(joined).toEqual({ key: c, size: 15_000 });
      expect(await listed()).toEqual([c]);
      // A key of another shape is a caller's bug, and nothing is written.
      await expect(store.write(chunked(randomBytes(10), 4), { key: '../escape' })).rejects.toThrow(RangeError);
      expect(await listed()).toEqual([c]);
    });

    it('leaves nothing under a handed-out key when the write fails', async () => {
      const store = await make();
      const before = raw ? await raw(store) : [];
      const key = store.newKey();
      const boom = new Error('client went away');
      await expect(store.write(failingAfter(randomBytes(300_000), 100, boom), { key })).rejects.toBe(boom);
      expect(await store.size(key)).toBeNull();
      if (raw) expect(await raw(store)).toEqual(before);
    });
  });
}
