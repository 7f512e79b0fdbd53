import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOB_BUCKET, COLLECTIONS } from '../../src/adapters/mongodb/index.js';
import { startCoffer, type RunningCoffer } from '../../src/boot/server.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from '../support/mongo.js';
import { ADMIN, CHEAP_ARGON2, dropDatabases, freshDbName, mongoConfig } from './mongo-app.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

interface Reply {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  text: string;
}

/** The service as `npm start` runs it (startCoffer), on MongoDB with GridFS, driven over real HTTP. */
describe.skipIf(!target)('the HTTP API end to end on MongoDB + GridFS', () => {
  const dbName = freshDbName();
  let running: RunningCoffer;
  let raw: MongoClient;
  let db: Db;

  async function call(method: string, path: string, init: { token?: string; json?: unknown; body?: FormData; headers?: Record<string, string> } = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.authorization = `token ${init.token}`;
    let body: string | FormData | undefined = init.body;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    const res = await fetch(running.url + path, { method, headers, body });
    const text = await res.text();
    const json = (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : undefined;
    return { status: res.status, headers: res.headers, body: json, text };
  }

  async function login(username: string, password: string): Promise<string> {
    const res = await call('POST', '/api/auth/login', { json: { username, password } });
    expect(res.status).toBe(200);
    return res.body.token;
  }

  beforeAll(async () => {
    running = await startCoffer(mongoConfig(target!.uri, dbName), { argon2: CHEAP_ARGON2 });
    raw = await MongoClient.connect(target!.uri);
    db = raw.db(dbName);
  });

  afterAll(async () => {
    await running?.close();
    await raw?.close();
    await dropDatabases(target!.uri, [dbName]);
    await target?.stop();
  });

  it('names MongoDB in /health', async () => {
    expect((await call('GET', '/health')).body).toEqual({ status: 'ok', persistence: 'mongodb' });
  });

  it('serves a whole session: upload, ranged download, a shared folder tree, search, usage, admin, delete', async () => {
    const admin = await login(ADMIN.username, ADMIN.password);
    const created = await call('POST', '/api/admin/users', { token: admin, json: { username: 'alice', password: 'alice-password' } });
    expect(created.status).toBe(201);
    const alice = await login('alice', 'alice-password');

    const reports = await call('POST', '/api/folder', { token: alice, json: { name: 'Reports' } });
    expect(reports.status).toBe(201);
    const q1 = await call('POST', '/api/folder', { token: alice, json: { name: 'Q1', parentId: reports.body.id } });
    expect(q1.body.parentId).toBe(reports.body.id);

    const content = 'The quick brown fox jumps over the lazy dog';
    const form = new FormData();
    form.append('folderId', q1.body.id);
    form.append('file', new Blob([content], { type: 'text/plain' }), 'Report-2026.txt');
    const upload = await call('POST', '/api/file', { token: alice, body: form });
    expect(upload.status).toBe(201);
    expect(upload.body).toMatchObject({ name: 'Report-2026.txt', size: String(content.length), folderId: q1.body.id });
    const fileId: string = upload.body.id;
    const stored = await db.collection(COLLECTIONS.files).findOne({ _id: fileId as never });
    expect(await db.collection(`${BLOB_BUCKET}.files`).findOne({ _id: stored!.blobKey })).toMatchObject({
      length: content.length,
    });

    const ranged = await call('GET', `/api/file/${fileId}/content`, { token: alice, headers: { range: 'bytes=4-8' } });
    expect(ranged.status).toBe(206);
    expect(ranged.text).toBe('quick');
    expect(ranged.headers.get('content-range')).toBe(`bytes 4-8/${content.length}`);
    const whole = await call('GET', `/api/file/${fileId}/content`, { token: alice });
    expect(whole.text).toBe(content);

    const share = await call('POST', '/api/share', { token: alice, json: { type: 'folder', id: reports.body.id } });
    expect(share.status).toBe(201);
    const tree = await call('GET', `/api/folder/${reports.body.id}`, { headers: { 'x-share-id': share.body.id } });
    expect(tree.status).toBe(200);
    expect(tree.body.folders).toHaveLength(1);
    expect(tree.body.folders[0]).toMatchObject({ id: q1.body.id, files: [expect.objectContaining({ id: fileId })] });
    const viaLink = await call('GET', `/api/file/${fileId}/content`, { headers: { 'x-share-id': share.body.id, range: 'bytes=-3' } });
    expect(viaLink.status).toBe(206);
    expect(viaLink.text).toBe('dog');
    expect((await call('GET', `/api/share/${share.body.id}`)).body).toMatchObject({ views: 1, type: 'folder' });

    const search = await call('POST', '/api/search', { token: alice, json: { query: 'REPORT' } });
    expect(search.body.files.map((f: { id: string }) => f.id)).toEqual([fileId]);
    expect(search.body.folders.map((f: { id: string }) => f.id)).toEqual([reports.body.id]);
    const scoped = await call('POST', '/api/search', {
      token: alice,
      json: { query: 'q', folderId: reports.body.id, recursive: true },
    });
    expect(scoped.body.folders.map((f: { id: string }) => f.id)).toEqual([q1.body.id]);

    const usage = await call('GET', '/api/usage/stats', { token: alice });
    expect(usage.body).toMatchObject({
      storage: { current: String(content.length) },
      files: { current: 1 },
      folders: { current: 2 },
      shares: { current: 1 },
    });
    const users = await call('GET', '/api/admin/users', { token: admin });
    expect(users.body.find((u: { username: string }) => u.username === 'alice')).toMatchObject({
      type: 'user',
      files: { current: 1 },
    });
    expect((await call('GET', '/api/admin/users', { token: alice })).status).toBe(403);

    expect((await call('DELETE', `/api/folder/${reports.body.id}`, { token: alice })).status).toBe(204);
    expect(await db.collection(`${BLOB_BUCKET}.files`).countDocuments()).toBe(0);
    expect(await db.collection(`${BLOB_BUCKET}.chunks`).countDocuments()).toBe(0);
    expect((await call('GET', '/api/usage/stats', { token: alice })).body).toMatchObject({
      storage: { current: '0' },
      files: { current: 0 },
      folders: { current: 0 },
      shares: { current: 0 },
    });
    expect((await call('GET', `/api/share/${share.body.id}`)).status).toBe(404);
  });

  it('keeps sessions in the database: a second instance on it accepts the first one’s token', async () => {
    const token = await login(ADMIN.username, ADMIN.password);
    const other = await startCoffer(mongoConfig(target!.uri, dbName), { argon2: CHEAP_ARGON2 });
    try {
      const res = await fetch(`${other.url}/api/auth/me`, { headers: { authorization: `token ${token}` } });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ username: ADMIN.username, type: 'admin' });
    } finally {
      await other.close();
    }
  });
});
