import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';

let t: HttpTest;
afterEach(() => t.close());

/** Every file below the fs blob store's directory (blobs and temporary files alike), read from disk. */
function filesOnDisk(): string[] {
  // The store keeps its directory private; the test reads raw storage rather than trusting the store.
  const root = dirname((t.ports.blobs as unknown as { blobsDir: string }).blobsDir);
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [e.name]));
  return walk(root);
}

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('an upload the client aborts', () => {
  it('leaves neither bytes nor counts behind', async () => {
    t = await makeHttp({ blobs: 'fs' });
    const token = await t.userToken('alice');
    const { port } = new URL(t.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.on('error', () => {});
    const head = [
      'POST /api/file HTTP/1.1',
      'Host: 127.0.0.1',
      `Authorization: token ${token}`,
      'Content-Type: multipart/form-data; boundary=BOUNDARY',
      'Content-Length: 1000000',
      '',
      '--BOUNDARY',
      'Content-Disposition: form-data; name="file"; filename="big.bin"',
      'Content-Type: application/octet-stream',
      '',
      '',
    ].join('\r\n');
    socket.write(head);
    socket.write(Buffer.alloc(200 * 1024, 7));
    // The bytes are on their way to disk before the client goes away.
    await until(() => filesOnDisk().length > 0, 'the upload to reach the store');
    socket.destroy();

    await until(() => filesOnDisk().length === 0, 'the partial blob to be removed');
    const usage = await t.request('GET', '/api/usage/stats', { token });
    expect(usage.body).toMatchObject({ storage: { current: '0' }, files: { current: 0 } });
    expect((await t.request('GET', '/api/folder', { token })).body.files).toEqual([]);
    // The server keeps serving.
    expect((await t.upload(token, 'after')).status).toBe(201);
  });
});

describe('parallel uploads', () => {
  it('with room for 5 in storage, exactly 5 of 20 succeed and the counters match', async () => {
    t = await makeHttp({ limits: { storage: 5 * 1000 } });
    const token = await t.userToken('alice');
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => t.upload(token, Buffer.alloc(1000, i), { filename: `f${i}.bin` })),
    );
    const created = replies.filter((r) => r.status === 201);
    const refused = replies.filter((r) => r.status !== 201);
    expect(created).toHaveLength(5);
    for (const r of refused) {
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ error: 'limit_reached', limit: 'storage' });
    }
    const usage = (await t.request('GET', '/api/usage/stats', { token })).body;
    expect(usage.storage).toEqual({ current: '5000', max: '5000' });
    expect(usage.files.current).toBe(5);
    expect((await t.request('GET', '/api/folder', { token })).body.files).toHaveLength(5);
  });

  it('with room for 5 files, exactly 5 of 20 succeed', async () => {
    t = await makeHttp({ limits: { files: 5 } });
    const token = await t.userToken('alice');
    const replies = await Promise.all(Array.from({ length: 20 }, () => t.upload(token, 'x')));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(5);
    expect(replies.filter((r) => r.body?.limit === 'files')).toHaveLength(15);
    expect((await t.request('GET', '/api/usage/stats', { token })).body.files).toEqual({ current: 5, max: 5 });
  });
});
