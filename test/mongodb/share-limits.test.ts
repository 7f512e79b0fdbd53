import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpApp } from '../../src/adapters/http/http-app.js';
import { createHttpServer } from '../../src/adapters/http/server/http-server.js';
import { COLLECTIONS } from '../../src/adapters/mongodb/index.js';
import { Core } from '../../src/application/index.js';
import { buildContainer, connectPersistence, type Persistence } from '../../src/boot/composition.js';
import { createLogger } from '../../src/boot/logger.js';
import { TestClock } from '../support/core.js';
import { silentLogger, toReply, type Reply } from '../support/http.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from '../support/mongo.js';
import { ADMIN, CHEAP_ARGON2, dropDatabases, freshDbName, mongoConfig } from './mongo-app.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

const HOUR = 3600_000;
const BYTES = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));

interface CallOptions {
  token?: string;
  json?: unknown;
  headers?: Record<string, string>;
  body?: FormData;
}

interface Instance {
  url: string;
  close(): Promise<void>;
}

/** One app instance as `npm start` builds it, on the shared database, with the test's clock. */
async function instance(dbName: string, clock: TestClock): Promise<Instance & { core: Core; persistence: Persistence }> {
  const config = mongoConfig(target!.uri, dbName);
  const persistence = await connectPersistence(config, { logger: createLogger('silent') });
  const container = buildContainer(config, { persistence, argon2: CHEAP_ARGON2, clock, httpLogger: silentLogger });
  const server: Server = createHttpServer(container.get(HttpApp).callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    core: container.get<Core>(Core),
    persistence,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await container.unbindAllAsync();
      await persistence.close();
    },
  };
}

describe.skipIf(!target)('share limits with two app instances on one MongoDB', () => {
  const dbName = freshDbName();
  const clock = new TestClock();
  let instances: Instance[];
  let raw: MongoClient;
  let db: Db;
  let alice: string;
  let fileId: string;

  /** Request `i` goes to instance `i % 2`. */
  async function call(i: number, method: string, path: string, init: CallOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.authorization = `token ${init.token}`;
    let body: string | FormData | undefined = init.body;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    return toReply(await fetch(instances[i % 2]!.url + path, { method, headers, body }));
  }
  const share = async (json: Record<string, unknown>) => {
    const res = await call(0, 'POST', '/api/share', { token: alice, json });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const stored = async (id: string) => (await db.collection(COLLECTIONS.shares).findOne({ _id: id as never }))!;
  const parallel = (n: number, read: (i: number) => Promise<Reply>) =>
    Promise.all(Array.from({ length: n }, (_, i) => read(i)));
  const statuses = (replies: Reply[]) => replies.map((r) => r.status).sort();

  beforeAll(async () => {
    const a = await instance(dbName, clock);
    const b = await instance(dbName, clock);
    instances = [a, b];
    expect(a.persistence.db).not.toBe(b.persistence.db);
    await a.core.ensureAdmin.execute(ADMIN);
    const admin = (await call(1, 'POST', '/api/auth/login', { json: ADMIN })).body.token;
    const user = { username: 'alice', password: 'alice-password' };
    expect((await call(0, 'POST', '/api/admin/users', { token: admin, json: user })).status).toBe(201);
    alice = (await call(1, 'POST', '/api/auth/login', { json: user })).body.token;
    const form = new FormData();
    form.append('file', new Blob([BYTES], { type: 'application/octet-stream' }), 'clip.bin');
    fileId = (await call(0, 'POST', '/api/file', { token: alice, body: form })).body.id;
    raw = await MongoClient.connect(target!.uri);
    db = raw.db(dbName);
  });

  afterAll(async () => {
    await Promise.all(instances?.map((i) => i.close()) ?? []);
    await raw?.close();
    await dropDatabases(target!.uri, [dbName]);
    await target?.stop();
  });

  it('50 parallel reads over both instances of a share with maxViews 10: ten 200s, forty 410s, views 10', async () => {
    const id = await share({ type: 'file', id: fileId, maxViews: 10 });
    const replies = await parallel(50, (i) => call(i, 'GET', `/api/share/${id}`));
    expect(statuses(replies)).toEqual([...Array(10).fill(200), ...Array(40).fill(410)]);
    expect(new Set(replies.filter((r) => r.status === 410).map((r) => r.body.error))).toEqual(new Set(['gone']));
    expect(await stored(id)).toMatchObject({ views: 10 });
    await call(0, 'DELETE', `/api/share/${id}`, { token: alice });
  });

  it('50 parallel downloads over both instances with maxDownloads 10: ten whole files, forty 410s', async () => {
    const id = await share({ type: 'file', id: fileId, maxDownloads: 10 });
    const replies = await parallel(50, (i) => call(i, 'GET', `/api/share/${id}/content`));
    expect(statuses(replies)).toEqual([...Array(10).fill(200), ...Array(40).fill(410)]);
    for (const ok of replies.filter((r) => r.status === 200)) expect(ok.bytes.equals(BYTES)).toBe(true);
    expect(await stored(id)).toMatchObject({ views: 0, downloads: 10 });
    await call(0, 'DELETE', `/api/share/${id}`, { token: alice });
  });

  it('a Range playback spread over both instances counts one download; owner reads and HEAD count nothing', async () => {
    const id = await share({ type: 'file', id: fileId });
    const path = `/api/share/${id}/content`;
    const ranges = ['bytes=0-', 'bytes=1000-2000', 'bytes=2001-'];
    for (const [i, range] of ranges.entries()) {
      expect((await call(i, 'GET', path, { headers: { range } })).status).toBe(206);
    }
    await call(0, 'GET', path, { token: alice });
    await call(1, 'GET', `/api/share/${id}`, { token: alice });
    await call(0, 'HEAD', `/api/share/${id}`);
    await call(1, 'HEAD', path);
    expect(await stored(id)).toMatchObject({ views: 0, downloads: 1 });
    await call(0, 'DELETE', `/api/share/${id}`, { token: alice });
  });

  it('an expired share answers 410 on both instances until its owner lifts the expiry', async () => {
    const folder = (await call(0, 'POST', '/api/folder', { token: alice, json: { name: 'f' } })).body;
    await call(0, 'PATCH', `/api/file/${fileId}`, { token: alice, json: { folderId: folder.id } });
    const id = await share({ type: 'folder', id: folder.id, expiresAt: new Date(clock.now().getTime() + HOUR) });
    const headers = { 'x-share-id': id };
    const reads = (i: number) => [
      call(i, 'GET', `/api/share/${id}`),
      call(i, 'GET', `/api/folder/${folder.id}`, { headers }),
      call(i, 'GET', `/api/file/${fileId}`, { headers }),
      call(i, 'GET', `/api/file/${fileId}/content`, { headers }),
    ];
    expect(statuses(await Promise.all([...reads(0), ...reads(1)]))).toEqual(Array(8).fill(200));
    clock.advance(HOUR);
    expect(statuses(await Promise.all([...reads(0), ...reads(1)]))).toEqual(Array(8).fill(410));
    const listed = (await call(1, 'GET', '/api/share', { token: alice })).body;
    expect(listed.find((s: { id: string }) => s.id === id)).toMatchObject({ state: 'expired', views: 2, downloads: 2 });
    expect((await call(1, 'PATCH', `/api/share/${id}`, { token: alice, json: { expiresAt: null } })).status).toBe(200);
    expect(statuses(await Promise.all([...reads(0), ...reads(1)]))).toEqual(Array(8).fill(200));
    expect((await call(0, 'DELETE', `/api/share/${id}`, { token: alice })).status).toBe(204);
  });
});
