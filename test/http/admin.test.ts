import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isByteKind, LIMIT_KINDS } from '../../src/domain/index.js';
import { TEST_LIMITS } from '../support/core.js';
import { makeHttp, type HttpTest } from '../support/http.js';

let t: HttpTest;
let admin: string;
let alice: { token: string; userId: string };
afterEach(() => t.close());
beforeEach(async () => {
  t = await makeHttp();
  admin = await t.adminToken();
  alice = await t.user('alice');
});

const COUNTS = ['files', 'folders', 'pastes', 'collections', 'shares', 'tokens', 'requests'] as const;

function expectUsageRecord(record: Record<string, { current: unknown; max: unknown }>): void {
  expect(typeof record['storage']!.current).toBe('string');
  expect(record['storage']!.max).toMatch(/^\d+$/);
  for (const kind of COUNTS) {
    expect(Number.isInteger(record[kind]!.current), kind).toBe(true);
    expect(Number.isInteger(record[kind]!.max), kind).toBe(true);
  }
}

describe('GET /api/usage/stats', () => {
  it('answers the caller counters with the limits, storage as strings', async () => {
    await t.upload(alice.token, 'abcd');
    const res = await t.request('GET', '/api/usage/stats', { token: alice.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([...COUNTS, 'storage'].sort());
    expect(res.body.storage).toEqual({ current: '4', max: String(TEST_LIMITS.storage) });
    expect(res.body.files).toEqual({ current: 1, max: TEST_LIMITS.files });
    expectUsageRecord(res.body);
  });
});

describe('admin routes', () => {
  it('GET /api/admin/users lists every user with id, username, type and usage', async () => {
    const res = await t.request('GET', '/api/admin/users', { token: admin });
    expect(res.status).toBe(200);
    const names = res.body.map((u: { username: string }) => u.username).sort();
    expect(names).toEqual(['admin', 'alice']);
    const entry = res.body.find((u: { username: string }) => u.username === 'alice');
    expect(entry).toMatchObject({ id: alice.userId, type: 'user' });
    expectUsageRecord(entry);
  });

  it('GET /api/admin/users/{id} answers one user, 404 for an unknown id', async () => {
    const res = await t.request('GET', `/api/admin/users/${alice.userId}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: alice.userId, username: 'alice', type: 'user' });
    expectUsageRecord(res.body);
    expect((await t.request('GET', '/api/admin/users/nobody', { token: admin })).status).toBe(404);
  });

  it('answers 403 to a non-admin and to an admin API token, 401 without a token', async () => {
    const adminApi = (await t.request('POST', '/api/token', { token: admin, json: { name: 'ci' } })).body.token;
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/users'],
      ['GET', `/api/admin/users/${alice.userId}`],
      ['POST', '/api/admin/users', { username: 'zed', password: 'long-password' }],
      ['PATCH', `/api/admin/users/${alice.userId}`, { type: 'admin' }],
      ['DELETE', `/api/admin/users/${alice.userId}`],
    ];
    for (const [method, path, json] of routes) {
      for (const token of [alice.token, adminApi]) {
        const res = await t.request(method, path, { token, json });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body.error).toBe('forbidden');
      }
      expect((await t.request(method, path, { json })).status).toBe(401);
    }
  });

  it('POST creates a user (201), who can log in; 409 on a taken name; 400 on bad input', async () => {
    const res = await t.request('POST', '/api/admin/users', {
      token: admin,
      json: { username: 'zed', password: 'long-password', type: 'admin' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ username: 'zed', type: 'admin' });
    expectUsageRecord(res.body);
    const login = await t.request('POST', '/api/auth/login', { json: { username: 'zed', password: 'long-password' } });
    expect(login.status).toBe(200);
    const dup = await t.request('POST', '/api/admin/users', {
      token: admin,
      json: { username: 'zed', password: 'long-password' },
    });
    expect(dup.status).toBe(409);
    for (const json of [
      { username: 'x1' },
      { username: 'x2', password: 'long-password', type: 'root' },
      { username: 5, password: 'long-password' },
    ]) {
      expect((await t.request('POST', '/api/admin/users', { token: admin, json })).status).toBe(400);
    }
  });

  it('PATCH sets type, password and limits (storage as a decimal string), null restores the default', async () => {
    const res = await t.request('PATCH', `/api/admin/users/${alice.userId}`, {
      token: admin,
      json: { limits: { storage: '2048', files: 3, tokens: 0 } },
    });
    expect(res.status).toBe(200);
    expect(res.body.storage.max).toBe('2048');
    expect(res.body.files.max).toBe(3);
    expect(res.body.tokens.max).toBe(0);
    expect(res.body.folders.max).toBe(TEST_LIMITS.folders);
    const reset = await t.request('PATCH', `/api/admin/users/${alice.userId}`, {
      token: admin,
      json: { limits: { storage: null } },
    });
    expect(reset.body.storage.max).toBe(String(TEST_LIMITS.storage));
    expect(reset.body.files.max).toBe(3);
    const promoted = await t.request('PATCH', `/api/admin/users/${alice.userId}`, {
      token: admin,
      json: { type: 'admin' },
    });
    expect(promoted.body.type).toBe('admin');
    expect((await t.request('GET', '/api/admin/users', { token: alice.token })).status).toBe(200);
    const repassword = await t.request('PATCH', `/api/admin/users/${alice.userId}`, {
      token: admin,
      json: { password: 'new-long-password' },
    });
    expect(repassword.status).toBe(200);
    const login = await t.request('POST', '/api/auth/login', {
      json: { username: 'alice', password: 'new-long-password' },
    });
    expect(login.status).toBe(200);
  });

  it('PATCH sets every kind of limit the domain knows, and refuses a kind it does not know', async () => {
    const limits = Object.fromEntries(LIMIT_KINDS.map((kind, i) => [kind, isByteKind(kind) ? String(1000 + i) : i]));
    const res = await t.request('PATCH', `/api/admin/users/${alice.userId}`, { token: admin, json: { limits } });
    expect(res.status).toBe(200);
    for (const kind of LIMIT_KINDS) expect(String(res.body[kind].max), kind).toBe(String(limits[kind]));

    const unknown = await t.request('PATCH', `/api/admin/users/${alice.userId}`, {
      token: admin,
      json: { limits: { files: 5, bandwidth: 10 } },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/bandwidth/);
    const after = await t.request('GET', `/api/admin/users/${alice.userId}`, { token: admin });
    expect(after.body.files.max).toBe(limits['files']);
  });

  it("PATCH applies from the user's very next request, on the token they already hold", async () => {
    // The maxima come with the caller, read with the token on every request: nothing keeps the old ones.
    const folder = (name: string) => t.request('POST', '/api/folder', { token: alice.token, json: { name, parentId: null } });
    expect((await folder('one')).status).toBe(201);
    const lowered = await t.request('PATCH', `/api/admin/users/${alice.userId}`, { token: admin, json: { limits: { folders: 1, storage: '3' } } });
    expect(lowered.status).toBe(200);
    const refused = await folder('two');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'limit_reached', limit: 'folders', max: 1, current: 1 });
    const tooBig = await t.upload(alice.token, 'four');
    expect(tooBig.status).toBe(403);
    expect(tooBig.body).toMatchObject({ error: 'limit_reached', limit: 'storage', max: '3' });
    const raised = await t.request('PATCH', `/api/admin/users/${alice.userId}`, { token: admin, json: { limits: { folders: 2, storage: null } } });
    expect(raised.status).toBe(200);
    expect((await folder('two')).status).toBe(201);
    expect((await t.upload(alice.token, 'four')).status).toBe(201);
  });

  it('PATCH answers 400 on bad limit values and 404 for an unknown user', async () => {
    for (const limits of [
      { storage: 2048 },
      { storage: '-1' },
      { storage: '1e3' },
      { storage: '99999999999999999' },
      { files: -1 },
      { files: 1.5 },
      { files: '3' },
    ]) {
      const res = await t.request('PATCH', `/api/admin/users/${alice.userId}`, { token: admin, json: { limits } });
      expect(res.status, JSON.stringify(limits)).toBe(400);
      expect(res.body.issues[0].path).toMatch(/^limits\./);
    }
    expect((await t.request('PATCH', `/api/admin/users/${alice.userId}`, { token: admin, json: { type: 'god' } })).status)
      .toBe(400);
    expect((await t.request('PATCH', '/api/admin/users/nobody', { token: admin, json: { type: 'user' } })).status)
      .toBe(404);
  });

  it('DELETE answers 204, removes the user with their data and logs them out', async () => {
    await t.upload(alice.token, 'bytes');
    const res = await t.request('DELETE', `/api/admin/users/${alice.userId}`, { token: admin });
    expect(res.status).toBe(204);
    expect((await t.request('GET', `/api/admin/users/${alice.userId}`, { token: admin })).status).toBe(404);
    expect((await t.request('GET', '/api/usage/stats', { token: alice.token })).status).toBe(401);
    expect((await t.request('DELETE', `/api/admin/users/${alice.userId}`, { token: admin })).status).toBe(404);
  });
});
