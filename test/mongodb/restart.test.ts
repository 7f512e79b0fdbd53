import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startCofferProcess, stopCofferProcess, waitForHealth, type CofferProcess } from '../support/coffer-process.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from '../support/mongo.js';
import { freePort } from '../support/raw-http.js';
import { tempDir } from '../support/temp.js';
import { dropDatabases, freshDbName } from './mongo-app.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

interface Reply {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  bytes: Buffer;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const ROOT = { username: 'root', password: 'root-password-long' };

/**
 * Nothing is lost by a restart on MongoDB: Coffer started as `npm start` starts it (a child process, only environment
 * variables), used, stopped with SIGTERM, started again on the same database, and everything is found as it was.
 */
describe.skipIf(!target)('a restart on MongoDB persistence', () => {
  const dbNames: string[] = [];
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });
  afterAll(async () => {
    await dropDatabases(target!.uri, dbNames);
    await target?.stop();
  });

  it.each(['fs', 'gridfs'])('keeps accounts, passwords, files, shares with their counts and tokens (BLOB_STORE=%s)', async (blobStore) => {
    const dbName = freshDbName();
    dbNames.push(dbName);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = {
      PORT: String(port),
      DATA_DIR: tempDir('restart'),
      MONGODB_URI: target!.uri,
      MONGODB_DB: dbName,
      BLOB_STORE: blobStore,
      ADMIN_USERNAME: ROOT.username,
      ADMIN_PASSWORD: ROOT.password,
      REGISTRATION: 'open',
      // Production: a database is there, so the rule against memory never comes into play.
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
    };

    const call = async (
      method: string,
      path: string,
      init: { token?: string; json?: unknown; body?: FormData | Buffer; headers?: Record<string, string> } = {},
    ): Promise<Reply> => {
      const headers: Record<string, string> = { ...init.headers };
      if (init.token) headers.authorization = `token ${init.token}`;
      let body: string | FormData | Uint8Array | undefined = init.body;
      if (init.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(init.json);
      }
      const res = await fetch(url + path, { method, headers, body });
      const bytes = Buffer.from(await res.arrayBuffer());
      const isJson = (res.headers.get('content-type') ?? '').includes('json') && bytes.length > 0;
      return { status: res.status, headers: res.headers, body: isJson ? JSON.parse(bytes.toString()) : undefined, bytes };
    };
    const login = async (username: string, password: string) => call('POST', '/api/auth/login', { json: { username, password } });
    const tokenOf = async (username: string, password: string): Promise<string> => {
      const res = await login(username, password);
      expect(res.status, `${username} logs in`).toBe(200);
      return res.body.token;
    };
    const upload = (token: string, name: string, bytes: Buffer, folderId?: string) => {
      const form = new FormData();
      if (folderId) form.append('folderId', folderId);
      form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), name);
      return call('POST', '/api/file', { token, body: form });
    };
    const start = async (): Promise<CofferProcess> => {
      const coffer = startCofferProcess(env);
      children.push(coffer.child);
      expect(await (await waitForHealth(url, coffer)).json()).toEqual({ status: 'ok', persistence: 'mongodb' });
      return coffer;
    };

    // ---- first run: use it as people would ----
    const first = await start();
    const root = await tokenOf(ROOT.username, ROOT.password);
    const alice = await call('POST', '/api/admin/users', { token: root, json: { username: 'alice', password: 'set-by-root' } });
    expect(alice.status).toBe(201);
    await call('POST', '/api/admin/users', { token: root, json: { username: 'bob', password: 'bob-from-root' } });
    const carol = await call('POST', '/api/auth/register', { json: { username: 'carol', password: 'carol-chose-it' } });
    expect(carol.status).toBe(201);

    const aliceSession = await tokenOf('alice', 'set-by-root');
    const changed = await call('POST', '/api/auth/password', {
      token: aliceSession,
      json: { currentPassword: 'set-by-root', newPassword: 'alice-chose-this' },
    });
    expect(changed.status).toBe(204);

    const folder = await call('POST', '/api/folder', { token: aliceSession, json: { name: 'Holiday' } });
    const photo = randomBytes(700 * 1024 + 13);
    const note = Buffer.from('ünïcode note\n'.repeat(100));
    const photoFile = await upload(aliceSession, 'photo.bin', photo, folder.body.id);
    expect(photoFile.status).toBe(201);
    const noteFile = await upload(aliceSession, 'note.txt', note);
    const collection = await call('POST', '/api/collection', { token: aliceSession, json: { name: 'Best of' } });
    await call('PUT', `/api/collection/${collection.body.id}/file/${photoFile.body.id}`, { token: aliceSession });
    const paste = await call('POST', '/api/paste', { token: aliceSession, json: { content: 'pasted text', share: true } });
    expect(paste.status).toBe(201);

    const fileShare = await call('POST', '/api/share', {
      token: aliceSession,
      json: { type: 'file', id: photoFile.body.id, maxDownloads: 10, password: 'share-secret' },
    });
    const folderShare = await call('POST', '/api/share', { token: aliceSession, json: { type: 'folder', id: folder.body.id } });
    expect([fileShare.status, folderShare.status]).toEqual([201, 201]);
    const withPassword = { 'x-share-password': 'share-secret' };
    for (let i = 0; i < 3; i++) expect((await call('GET', `/api/share/${fileShare.body.id}`, { headers: withPassword })).status).toBe(200);
    const downloaded = await call('GET', `/api/share/${fileShare.body.id}/content`, { headers: withPassword });
    expect(sha256(downloaded.bytes)).toBe(sha256(photo));
    await call('GET', `/api/share/${folderShare.body.id}`);

    const apiToken = await call('POST', '/api/token', { token: aliceSession, json: { name: 'laptop' } });
    expect(apiToken.status).toBe(201);
    const byApi = await upload(apiToken.body.token, 'from-api.bin', Buffer.from('uploaded by the API token'));
    expect(byApi.status).toBe(201);

    const sharesBefore = (await call('GET', '/api/share', { token: aliceSession })).body;
    expect(sharesBefore.find((s: { id: string }) => s.id === fileShare.body.id)).toMatchObject({ views: 3, downloads: 1 });
    const usageBefore = (await call('GET', '/api/usage/stats', { token: aliceSession })).body;
    const usersBefore = (await call('GET', '/api/admin/users', { token: root })).body;

    expect(await stopCofferProcess(first)).toBe(0);
    await expect(fetch(`${url}/health`)).rejects.toThrow();

    // ---- second run on the same database ----
    const second = await start();

    // Accounts, with the password alice chose; the one root set for her is gone, and only bob is still asked to change.
    expect((await login('alice', 'set-by-root')).status).toBe(401);
    const aliceAgain = await tokenOf('alice', 'alice-chose-this');
    expect((await call('GET', '/api/auth/me', { token: aliceAgain })).body).toMatchObject({
      id: alice.body.id,
      username: 'alice',
      mustChangePassword: false,
    });
    const bob = await tokenOf('bob', 'bob-from-root');
    expect((await call('GET', '/api/auth/me', { token: bob })).body).toMatchObject({ mustChangePassword: true });
    await tokenOf('carol', 'carol-chose-it');
    expect((await call('GET', '/api/admin/users', { token: await tokenOf(ROOT.username, ROOT.password) })).body).toEqual(
      usersBefore,
    );
    // The session from before the restart is still good: sessions live in the database too.
    expect((await call('GET', '/api/auth/me', { token: aliceSession })).status).toBe(200);

    // Files, byte for byte, where they were.
    const photoAgain = await call('GET', `/api/file/${photoFile.body.id}/content`, { token: aliceAgain });
    expect(photoAgain.status).toBe(200);
    expect(photoAgain.bytes.length).toBe(photo.length);
    expect(sha256(photoAgain.bytes)).toBe(sha256(photo));
    expect((await call('GET', `/api/file/${noteFile.body.id}/content`, { token: aliceAgain })).bytes.equals(note)).toBe(true);
    const ranged = await call('GET', `/api/file/${photoFile.body.id}/content`, {
      token: aliceAgain,
      headers: { range: 'bytes=1000-1999' },
    });
    expect(ranged.status).toBe(206);
    expect(ranged.bytes.equals(photo.subarray(1000, 2000))).toBe(true);
    const tree = await call('GET', `/api/folder/${folder.body.id}`, { token: aliceAgain });
    expect(tree.body.files.map((f: { id: string }) => f.id)).toEqual([photoFile.body.id]);
    const best = (await call('GET', `/api/collection/${collection.body.id}`, { token: aliceAgain })).body;
    expect(best.files.map((f: { id: string }) => f.id)).toEqual([photoFile.body.id]);
    expect((await call('GET', `/api/paste/${paste.body.id}`, { token: aliceAgain })).body.content).toBe('pasted text');
    expect((await call('GET', '/api/usage/stats', { token: aliceAgain })).body).toEqual(usageBefore);

    // Shares, with their counts, password and limits; the recipients' links still open and go on counting.
    expect((await call('GET', '/api/share', { token: aliceAgain })).body).toEqual(sharesBefore);
    expect((await call('GET', `/api/share/${fileShare.body.id}`)).status).toBe(401);
    const viewed = await call('GET', `/api/share/${fileShare.body.id}`, { headers: withPassword });
    expect(viewed.body).toMatchObject({ views: 4, downloads: 1, maxDownloads: 10, protected: true });
    const again = await call('GET', `/api/share/${fileShare.body.id}/content`, { headers: withPassword });
    expect(sha256(again.bytes)).toBe(sha256(photo));
    expect((await call('GET', `/api/share/${folderShare.body.id}`)).body).toMatchObject({ views: 2 });
    expect((await call('GET', `/api/share/${paste.body.shareId}`)).body.paste).toMatchObject({ content: 'pasted text' });

    // The API token, as ShareX would use it after the restart.
    const api = apiToken.body.token as string;
    expect((await call('GET', '/api/token', { token: aliceAgain })).body).toEqual([
      { id: apiToken.body.id, name: 'laptop', scope: 'uploader', createdAt: apiToken.body.createdAt },
    ]);
    expect((await call('GET', '/api/usage/stats', { token: api })).status).toBe(200);
    expect((await call('GET', `/api/file/${byApi.body.id}/content`, { token: aliceAgain })).bytes.toString()).toBe(
      'uploaded by the API token',
    );
    expect((await upload(api, 'after-restart.bin', Buffer.from('still uploading'))).status).toBe(201);

    expect(await stopCofferProcess(second)).toBe(0);
  }, 180_000);
});
