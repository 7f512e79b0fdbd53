import { afterEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';
import { openSocket, uploadHead } from '../support/raw-http.js';
import { filesOnDisk, until } from '../support/wait.js';

let t: HttpTest;
afterEach(() => t.close());

const stored = () => filesOnDisk(t.ports.blobs);

describe('an upload the client aborts', () => {
  it('leaves neither bytes nor counts behind', async () => {
    t = await makeHttp({ blobs: 'fs' });
    const token = await t.userToken('alice');
    const socket = await openSocket(t.url);
    const head = uploadHead(token, 1_000_000);
    socket.write(head);
    socket.write(Buffer.alloc(200 * 1024, 7));
    // The bytes are on their way to disk before the client goes away.
    await until(async () => (await stored()).length > 0, 'the upload to reach the store');
    socket.destroy();

    await until(async () => (await stored()).length === 0, 'the partial blob to be removed');
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
