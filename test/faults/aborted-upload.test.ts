import { afterEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';
import { openSocket, uploadHead } from '../support/raw-http.js';
import { filesOnDisk, until } from '../support/wait.js';

let t: HttpTest;
afterEach(() => t.close());

const stored = () => filesOnDisk(t.ports.blobs);

/** Starts a real upload over a socket and returns it once `sent` bytes of the file are on the wire. */
async function startUpload(token: string, sent: number, { close = false } = {}) {
  const socket = await openSocket(t.url);
  const head = uploadHead(token, 10_000_000);
  socket.write(head);
  socket.write(Buffer.alloc(sent, 7));
  if (close) socket.write('\r\n--B--\r\n');
  return socket;
}

async function expectNothingKept(token: string): Promise<void> {
  await until(async () => (await stored()).length === 0, 'the partial blob to be removed');
  // Bytes go first, then the counts (in that order, so nothing ever counts less than exists).
  await until(async () => {
    const usage = (await t.request('GET', '/api/usage/stats', { token })).body;
    return usage.storage.current === '0' && usage.files.current === 0;
  }, 'the reservations to be given back');
  expect((await t.request('GET', '/api/folder', { token })).body.files).toEqual([]);
}

describe('a client that aborts an upload', () => {
  it('mid-file leaves neither bytes, a temporary file, a record nor counts', async () => {
    t = await makeHttp({ blobs: 'fs' });
    const token = await t.userToken('alice');
    const socket = await startUpload(token, 3 * 1024 * 1024);
    await until(async () => (await stored()).length > 0, 'bytes to reach the store');
    await until(async () => (await t.request('GET', '/api/usage/stats', { token })).body.storage.current !== '0', 'a reservation');
    socket.destroy();
    await expectNothingKept(token);
  });

  it('after the file part but before the form ends leaves nothing either', async () => {
    t = await makeHttp({ blobs: 'fs' });
    const token = await t.userToken('alice');
    // The closing boundary is never sent: the form is incomplete, so the file is too.
    const socket = await startUpload(token, 100 * 1024, { close: true });
    await until(async () => (await stored()).length > 0, 'bytes to reach the store');
    socket.destroy();
    await expectNothingKept(token);
  });

  it('with the memory store, in parallel with uploads that finish, keeps exactly the finished ones', async () => {
    t = await makeHttp({ limits: { storage: 20 * 1024 * 1024 } });
    const token = await t.userToken('alice');
    const sockets = await Promise.all(Array.from({ length: 5 }, () => startUpload(token, 512 * 1024)));
    const finished = await Promise.all(Array.from({ length: 5 }, (_, i) => t.upload(token, `done ${i}`)));
    for (const socket of sockets) socket.destroy();
    for (const res of finished) expect(res.status).toBe(201);
    const expectedBytes = finished.reduce((sum, res) => sum + Number(res.body.size), 0);
    await until(async () => {
      const usage = (await t.request('GET', '/api/usage/stats', { token })).body;
      return usage.storage.current === String(expectedBytes) && usage.files.current === 5;
    }, 'the aborted uploads to give their reservations back');
    const keys = [];
    for await (const blob of t.ports.blobs.list()) keys.push(blob.key);
    expect(keys).toHaveLength(5);
    expect((await t.request('GET', '/api/folder', { token })).body.files).toHaveLength(5);
  });
});
