import { createHash } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ensureIndexes, GridFsBlobStore } from '../../src/adapters/mongodb/index.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { getMongoUri, MONGO_SKIP_MESSAGE, TestDatabases } from '../support/mongo.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

const SIZE = 8 * 1024 * 1024;
const DATA = Buffer.alloc(SIZE);
for (let i = 0; i < SIZE; i += 4) DATA.writeUInt32LE(i, i);
const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let t: HttpTest;
afterEach(() => t.close());

type Outcome = { complete: true } | { complete: false; received: number };

/** A download whose headers and first chunk have arrived; the rest is read by `finish`. */
async function startDownload(path: string, token: string) {
  const res = await fetch(t.url + path, { headers: { authorization: `token ${token}` } });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const parts: Uint8Array[] = [];
  const first = await reader.read();
  if (first.value) parts.push(first.value);
  return async function finish(): Promise<Outcome> {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value);
      }
    } catch {
      return { complete: false, received: parts.reduce((n, p) => n + p.byteLength, 0) };
    }
    const body = Buffer.concat(parts);
    // A body that ended without an error must be the file itself, never a silently short one.
    expect(body.length).toBe(SIZE);
    expect(digest(body)).toBe(digest(DATA));
    return { complete: true };
  };
}

async function deleteWhileDownloading(token: string): Promise<Outcome[]> {
  const file = await t.upload(token, DATA, { type: 'application/octet-stream', filename: 'big.bin' });
  expect(file.status).toBe(201);
  const path = `/api/file/${file.body.id}/content`;
  const downloads = await Promise.all(Array.from({ length: 4 }, () => startDownload(path, token)));
  expect((await t.request('DELETE', `/api/file/${file.body.id}`, { token })).status).toBe(204);
  const outcomes = await Promise.all(downloads.map((finish) => finish()));
  // The service is unharmed: it answers, the file is gone, and nothing is still counted for it.
  expect((await t.request('GET', '/health')).status).toBe(200);
  expect((await t.request('GET', path, { token })).status).toBe(404);
  const usage = (await t.request('GET', '/api/usage/stats', { token })).body;
  expect(usage).toMatchObject({ storage: { current: '0' }, files: { current: 0 } });
  return outcomes;
}

async function expectGone(): Promise<void> {
  const left = [];
  for await (const blob of t.ports.blobs.list()) left.push(blob);
  expect(left).toEqual([]);
}

describe('deleting a file while it is being downloaded', () => {
  it('with the fs store: downloads already open complete, and the bytes are gone afterwards', async () => {
    t = await makeHttp({ blobs: 'fs', maxUploadBytes: 16 * 1024 * 1024, limits: { storage: 64 * 1024 * 1024 } });
    const outcomes = await deleteWhileDownloading(await t.userToken('alice'));
    // An open file handle keeps the bytes readable after the unlink.
    expect(outcomes.every((o) => o.complete)).toBe(true);
    await expectGone();
  });

  it('with the memory store: downloads complete or fail cleanly', async () => {
    t = await makeHttp({ maxUploadBytes: 16 * 1024 * 1024, limits: { storage: 64 * 1024 * 1024 } });
    await deleteWhileDownloading(await t.userToken('alice'));
    await expectGone();
  });

  describe.skipIf(!target)('with GridFS', () => {
    let client: MongoClient;
    let databases: TestDatabases;
    afterAll(async () => {
      await databases?.dropAll();
      await client?.close();
      await target?.stop();
    });

    it('downloads whose chunks vanish fail cleanly, and the process keeps serving', async () => {
      client = await MongoClient.connect(target!.uri);
      databases = new TestDatabases(client);
      const db = databases.fresh();
      await ensureIndexes(db);
      t = await makeHttp({
        maxUploadBytes: 16 * 1024 * 1024,
        limits: { storage: 64 * 1024 * 1024 },
        wrapPorts: (p) => ({ ...p, blobs: new GridFsBlobStore(db) }),
      });
      await deleteWhileDownloading(await t.userToken('alice'));
      await expectGone();
    });
  });
});
