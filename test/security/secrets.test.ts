import { writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/boot/logger.js';
import { makeHttp, type HttpTest, type Reply } from '../support/http.js';

let t: HttpTest;
afterEach(async () => {
  const current = t as HttpTest | undefined;
  t = undefined as unknown as HttpTest;
  await current?.close();
});

/** A pino logger writing into memory, as the service's logger writes to stdout. */
function capturedLogger(): { logger: ReturnType<typeof createLogger>; text: () => string } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger('debug', sink), text: () => lines.join('') };
}

/** Touches every route, with passwords in bodies, share passwords in headers, tokens of both kinds. */
async function fullFlow(t: HttpTest): Promise<void> {
  const ok = (res: Reply, what: string) => {
    expect(res.status, `${what}: ${res.text}`).toBeLessThan(400);
    return res;
  };
  const admin = await t.adminToken();
  await t.request('GET', '/health');
  const registered = ok(
    await t.request('POST', '/api/auth/register', { json: { username: 'bob', password: 'bob-password-123' } }),
    'register',
  );
  const login = ok(
    await t.request('POST', '/api/auth/login', { json: { username: 'bob', password: 'bob-password-123' } }),
    'login',
  );
  const token: string = login.body.token;
  await t.request('POST', '/api/auth/login', { json: { username: 'bob', password: 'wrong-password-456' } });
  ok(await t.request('GET', '/api/auth/me', { token }), 'me');
  ok(await t.request('POST', '/api/auth/logout', { token: registered.body.token }), 'logout');
  const newPassword = { currentPassword: 'bob-password-123', newPassword: 'bob-password-new' };
  ok(await t.request('POST', '/api/auth/password', { token, json: newPassword }), 'own password');

  const api = ok(await t.request('POST', '/api/token', { token, json: { name: 'ci' } }), 'token');
  ok(await t.request('GET', '/api/token', { token }), 'tokens');
  const folder = ok(await t.request('POST', '/api/folder', { token, json: { name: 'docs' } }), 'folder');
  const file = ok(await t.upload(api.body.token, 'secret bytes', { folderId: folder.body.id }), 'upload');
  ok(await t.request('GET', `/api/file/${file.body.id}`, { token }), 'file');
  ok(await t.request('GET', `/api/file/${file.body.id}/content`, { token }), 'content');
  ok(await t.request('PATCH', `/api/file/${file.body.id}`, { token, json: { name: 'renamed.txt' } }), 'rename');
  ok(await t.request('GET', '/api/folder', { token }), 'root');
  ok(await t.request('GET', `/api/folder/${folder.body.id}`, { token }), 'folder');
  ok(await t.request('PATCH', `/api/folder/${folder.body.id}`, { token, json: { name: 'papers' } }), 'folder rename');
  const collection = ok(await t.request('POST', '/api/collection', { token, json: { name: 'c' } }), 'collection');
  const cid = collection.body.id;
  ok(await t.request('PUT', `/api/collection/${cid}/file/${file.body.id}`, { token }), 'add');
  ok(await t.request('GET', '/api/collection', { token }), 'collections');
  ok(await t.request('GET', `/api/collection/${cid}`, { token }), 'collection');
  ok(await t.request('PATCH', `/api/collection/${cid}`, { token, json: { name: 'd' } }), 'collection rename');
  ok(await t.request('DELETE', `/api/collection/${cid}/file/${file.body.id}`, { token }), 'remove');
  const paste = ok(await t.request('POST', '/api/paste', { token, json: { content: 'hello' } }), 'paste');
  ok(await t.request('GET', '/api/paste', { token }), 'pastes');
  ok(await t.request('GET', `/api/paste/${paste.body.id}`, { token }), 'paste');
  ok(await t.request('PATCH', `/api/paste/${paste.body.id}`, { token, json: { content: 'bye' } }), 'paste edit');

  const sharePassword = 'share-password-789';
  const share = ok(
    await t.request('POST', '/api/share', { token, json: { type: 'folder', id: folder.body.id, password: sharePassword } }),
    'share',
  );
  const fileShare = ok(
    await t.request('POST', '/api/share', { token: api.body.token, json: { type: 'file', id: file.body.id } }),
    'file share',
  );
  ok(await t.request('GET', '/api/share', { token }), 'shares');
  await t.request('GET', `/api/share/${share.body.id}`);
  await t.request('GET', `/api/share/${share.body.id}`, { headers: { 'x-share-password': 'not-the-password' } });
  ok(await t.request('GET', `/api/share/${share.body.id}`, { headers: { 'x-share-password': sharePassword } }), 'read');
  ok(
    await t.request('GET', `/api/folder/${folder.body.id}`, {
      headers: { 'x-share-id': share.body.id, 'x-share-password': sharePassword },
    }),
    'through link',
  );
  ok(await t.request('GET', `/api/share/${fileShare.body.id}/content`), 'share content');
  ok(await t.request('PATCH', `/api/share/${share.body.id}`, { token, json: { password: 'another-password-0' } }), 'pw');
  ok(await t.request('POST', '/api/search', { token, json: { query: 'ren' } }), 'search');
  ok(await t.request('GET', '/api/usage/stats', { token: api.body.token }), 'usage');

  const users = ok(await t.request('GET', '/api/admin/users', { token: admin }), 'users');
  const bobId = users.body.find((u: { username: string }) => u.username === 'bob').id;
  ok(await t.request('GET', `/api/admin/users/${bobId}`, { token: admin }), 'user');
  const carol = ok(
    await t.request('POST', '/api/admin/users', { token: admin, json: { username: 'carol', password: 'carol-password-1' } }),
    'create user',
  );
  ok(
    await t.request('PATCH', `/api/admin/users/${carol.body.id}`, {
      token: admin,
      json: { password: 'carol-password-2', limits: { files: 3 } },
    }),
    'update user',
  );
  // The deletes below take hashes and keys out of storage; the scan reads them while they are still there.
  await t.scan.known();
  ok(await t.request('DELETE', `/api/share/${fileShare.body.id}`, { token }), 'unshare');
  ok(await t.request('DELETE', `/api/paste/${paste.body.id}`, { token }), 'paste delete');
  ok(await t.request('DELETE', `/api/collection/${cid}`, { token }), 'collection delete');
  ok(await t.request('DELETE', `/api/file/${file.body.id}`, { token }), 'file delete');
  ok(await t.request('DELETE', `/api/folder/${folder.body.id}`, { token }), 'folder delete');
  ok(await t.request('DELETE', `/api/token/${api.body.id}`, { token }), 'token delete');
  ok(await t.request('DELETE', `/api/admin/users/${carol.body.id}`, { token: admin }), 'user delete');
}

describe('no secret in any response', () => {
  it('holds over a flow that touches every route', async () => {
    t = await makeHttp({ registration: 'open', blobs: 'fs' });
    await fullFlow(t);
    const known = await t.scan.known();
    for (const kind of ['password', 'token', 'token hash', 'password hash', 'blob key', 'storage path', 'share hash']) {
      expect(known.get(kind)?.length ?? 0, kind).toBeGreaterThan(0);
    }
    expect(await t.scan.leaks()).toEqual([]);
  });

  it('is checked by a scan that does catch each kind of leak', async () => {
    // The planted answer is outside the document on purpose: only the secret scan is under test here.
    const leaky = await makeHttp({ blobs: 'fs', checkAnswers: false });
    const { token, userId } = await leaky.user('alice');
    const user = (await leaky.ports.users.findById(userId))!;
    const blobsDir = (leaky.ports.blobs as unknown as { blobsDir: string }).blobsDir;
    const file = await leaky.upload(token, 'x');
    const blobKey = (await leaky.ports.files.findById(file.body.id))!.blobKey;
    const planted = [user.passwordHash, leaky.ports.secrets.hash(token), token, blobKey, blobsDir, 'alice-password'];
    leaky.core.getMe.execute = async () => ({ planted }) as never;
    await leaky.request('GET', '/api/auth/me', { token });
    const leaks = (await leaky.scan.leaks()).join('\n');
    for (const kind of ['password hash', 'token hash', 'token in', 'blob key', 'storage path', 'password in']) {
      expect(leaks).toContain(kind);
    }
    await expect(leaky.close()).rejects.toThrow(/Secrets reached a response/);
  });
});

describe('no secret in any log line', () => {
  it('holds over the same flow, a failing store included', async () => {
    const { logger, text } = capturedLogger();
    t = await makeHttp({ registration: 'open', blobs: 'fs', logger });
    await fullFlow(t);
    // A store failure is logged with its cause; the cause must not carry DATA_DIR or a key.
    const blobsDir = (t.ports.blobs as unknown as { blobsDir: string }).blobsDir;
    rmSync(blobsDir, { recursive: true, force: true });
    writeFileSync(blobsDir, 'not a directory');
    const token = await t.userToken('dave');
    const failed = await t.upload(token, 'bytes');
    expect(failed.status).toBe(500);
    expect(text()).toContain('request failed');

    const log = text();
    expect(log.split('\n').filter(Boolean).length).toBeGreaterThan(40);
    for (const [kind, values] of await t.scan.known()) {
      for (const value of values) expect(log.includes(value), `${kind} in the log`).toBe(false);
    }
    expect(log).not.toContain(join(blobsDir, '..'));
    expect(log).not.toMatch(/token [A-Za-z0-9_-]{20,}/);
  });

  it('redacts authorization headers and password fields wherever a log call puts them', () => {
    const { logger, text } = capturedLogger();
    logger.info(
      {
        password: 'top-secret-1',
        user: { password: 'top-secret-2', passwordHash: '$argon2id$secret' },
        token: 'tok-secret',
        req: { headers: { authorization: 'token header-secret', 'x-share-password': 'share-secret' } },
        headers: { authorization: 'token bare-header-secret' },
      },
      'something happened',
    );
    const line = text();
    expect(line).toContain('something happened');
    for (const secret of ['top-secret', 'argon2id', 'tok-secret', 'header-secret', 'share-secret']) {
      expect(line).not.toContain(secret);
    }
  });
});

describe('tokens travel only in the Authorization header', () => {
  it('ignores tokens in the query string, cookies and other headers', async () => {
    t = await makeHttp();
    const token = await t.userToken('alice');
    const attempts = [
      t.request('GET', `/api/usage/stats?token=${token}`),
      t.request('GET', `/api/usage/stats?access_token=${token}`),
      t.request('GET', `/api/usage/stats?authorization=${encodeURIComponent(`token ${token}`)}`),
      t.request('GET', '/api/usage/stats', { headers: { cookie: `token=${token}` } }),
      t.request('GET', '/api/usage/stats', { headers: { 'x-token': token, 'x-api-key': token } }),
      t.request('GET', `/api/usage/stats?access_token=${token}`, { headers: { authorization: 'Bearer' } }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('unauthorized');
    }
    expect((await t.request('GET', '/api/usage/stats', { token })).status).toBe(200);
    // The header is the one place, in either of its two forms.
    const bearer = await t.request('GET', '/api/usage/stats', { headers: { authorization: `Bearer ${token}` } });
    expect(bearer.status).toBe(200);
  });

  it('takes a share password only from X-Share-Password', async () => {
    t = await makeHttp();
    const token = await t.userToken('alice');
    const folder = await t.request('POST', '/api/folder', { token, json: { name: 'f' } });
    const password = 'share-password-1';
    const share = await t.request('POST', '/api/share', { token, json: { type: 'folder', id: folder.body.id, password } });
    const viaQuery = await t.request('GET', `/api/share/${share.body.id}?password=${password}`);
    expect(viaQuery.status).toBe(401);
    expect(viaQuery.body.error).toBe('share_password_required');
    const viaHeader = await t.request('GET', `/api/share/${share.body.id}`, { headers: { 'x-share-password': password } });
    expect(viaHeader.status).toBe(200);
  });
});
