import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { BlobPiece, BlobStore, FileRepository, Ports, KeyOptions, WriteOptions } from '../../src/application/index.js';
import { makeHttp, type HttpTest } from '../support/http.js';

const TUS = { 'tus-resumable': '1.0.0' };
const STREAM = { ...TUS, 'content-type': 'application/offset+octet-stream' };
const b64 = (text: string) => Buffer.from(text).toString('base64');
const sha256 = (bytes: string | Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * A real store whose blobs can be made to look as a power loss leaves unflushed files: shorter than written (their
 * size and bytes cut). It records each write's key and flushing mode, and the order of flushes and file records.
 */
class PowerLossBlobs implements BlobStore {
  readonly written: { key: string; durable: boolean }[] = [];
  readonly events: string[] = [];
  private readonly cut = new Map<string, number>();

  constructor(readonly inner: BlobStore) {}

  lose(key: string, keep: number) {
    this.cut.set(key, keep);
  }
  async write(content: AsyncIterable<BlobPiece>, options?: WriteOptions) {
    const blob = await this.inner.write(content, options);
    this.written.push({ key: blob.key, durable: options?.durable !== false });
    return blob;
  }
  async makeDurable(keys: readonly string[]) {
    this.events.push(`durable ${keys.join(',')}`);
    return this.inner.makeDurable(keys);
  }
  async size(key: string) {
    const size = await this.inner.size(key);
    return size === null ? null : Math.min(size, this.cut.get(key) ?? size);
  }
  async read(...args: Parameters<BlobStore['read']>) {
    const [key] = args;
    if (this.cut.has(key)) throw new Error('a test reads only blobs the power loss spared');
    return this.inner.read(...args);
  }
  newKey() {
    return this.inner.newKey();
  }
  join(keys: readonly string[], options?: KeyOptions) {
    return this.inner.join(keys, options);
  }
  delete(key: string) {
    return this.inner.delete(key);
  }
  list() {
    return this.inner.list();
  }
  purgeIncomplete(before: Date) {
    return this.inner.purgeIncomplete(before);
  }
  purgeAbandoned() {
    return this.inner.purgeAbandoned();
  }
}

describe.each(['memory', 'fs'] as const)('resumable uploads after a power loss (%s store)', (blobs) => {
  let t: HttpTest;
  let store: PowerLossBlobs;
  let token: string;
  afterEach(() => t.close());

  const setUp = async () => {
    t = await makeHttp({
      blobs,
      maxUploadBytes: 1000,
      limits: { storage: 600 },
      wrapPorts: (p: Ports) => {
        store = new PowerLossBlobs(p.blobs);
        const files = Object.assign(Object.create(p.files) as FileRepository, {
          insert: async (file: Parameters<FileRepository['insert']>[0]) => {
            store.events.push('file');
            return p.files.insert(file);
          },
        });
        return { ...p, blobs: store, files };
      },
    });
    token = await t.userToken('alice');
  };
  const create = async (length: number) => {
    const res = await t.request('POST', '/api/upload/tus', {
      token,
      headers: { ...TUS, 'upload-length': String(length), 'upload-metadata': `filename ${b64('big.bin')}` },
    });
    expect(res.status).toBe(201);
    return res.headers.get('location')!;
  };
  const patch = (location: string, offset: number, body: string) =>
    t.request('PATCH', location, { token, headers: { ...STREAM, 'upload-offset': String(offset) }, body });
  const offsetOf = async (location: string) =>
    Number((await t.request('HEAD', location, { token, headers: TUS })).headers.get('upload-offset'));
  const storageUsed = async () => (await t.request('GET', '/api/usage/stats', { token })).body.storage.current;
  const contentOf = async (fileId: string) => (await t.request('GET', `/api/file/${fileId}/content`, { token })).bytes;

  const [A, B, C] = ['a'.repeat(100), 'b'.repeat(100), 'c'.repeat(100)];

  it('reports on resume the offset whose bytes truly exist, and the client resends the rest', async () => {
    await setUp();
    const location = await create(300);
    expect((await patch(location, 0, A)).status).toBe(204);
    expect((await patch(location, 100, B)).status).toBe(204);
    const [, second] = store.written;
    store.lose(second!.key, 37);

    expect(await offsetOf(location)).toBe(100);
    expect(await storageUsed()).toBe('100');
    expect(await t.ports.blobs.size(second!.key)).toBeNull();
    // The client's own idea of the offset is now too high: the protocol's 409 with the true one.
    const stale = await patch(location, 200, C);
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: 'conflict', offset: 100 });

    expect((await patch(location, 100, B)).status).toBe(204);
    const done = await patch(location, 200, C);
    expect(done.status).toBe(204);
    expect(sha256(await contentOf(done.headers.get('x-file-id')!))).toBe(sha256(A + B + C));
    expect(await storageUsed()).toBe('300');
  });

  it('fails the completing PATCH with 409 when a part is short, then completes once the client resends', async () => {
    await setUp();
    const location = await create(300);
    await patch(location, 0, A);
    await patch(location, 100, B);
    store.lose(store.written[0]!.key, 0);

    const last = await patch(location, 200, C);
    expect(last.status).toBe(409);
    expect(last.body).toMatchObject({ error: 'conflict', offset: 0 });
    expect(await storageUsed()).toBe('0');
    expect(await offsetOf(location)).toBe(0);

    const done = await patch(location, 0, A + B + C);
    expect(done.status).toBe(204);
    expect(sha256(await contentOf(done.headers.get('x-file-id')!))).toBe(sha256(A + B + C));
    expect(await storageUsed()).toBe('300');
    const usage = await t.request('GET', '/api/usage/stats', { token });
    expect(usage.body.files.current).toBe(1);
  });

  it('answers each PATCH before flushing, and flushes every part before the file lands', async () => {
    await setUp();
    const location = await create(300);
    await patch(location, 0, A);
    await patch(location, 100, B);
    expect(store.events).toEqual([]);
    const done = await patch(location, 200, C);
    expect(done.status).toBe(204);
    const parts = store.written.slice(0, 3);
    expect(parts.map((part) => part.durable)).toEqual([false, false, false]);
    expect(store.events).toEqual([`durable ${parts.map((part) => part.key).join(',')}`, 'file']);
  });
});
