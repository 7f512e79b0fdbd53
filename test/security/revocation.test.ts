import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';

let t: HttpTest;
let admin: string;
beforeEach(async () => {
  t = await makeHttp();
  admin = await t.adminToken();
});
afterEach(() => t.close());

/** A user with two sessions, an API token, and a public share of each kind of item. */
async function equippedUser(name: string) {
  const { token, userId } = await t.user(name);
  const second = await t.request('POST', '/api/auth/login', { json: { username: name, password: `${name}-password` } });
  const api = await t.request('POST', '/api/token', { token, json: { name: 'ci' } });
  const file = await t.upload(token, 'shared bytes');
  const folder = await t.request('POST', '/api/folder', { token, json: { name: 'f' } });
  const paste = await t.request('POST', '/api/paste', { token, json: { content: 'p' } });
  const collection = await t.request('POST', '/api/collection', { token, json: { name: 'c' } });
  const shares: Record<string, string> = {};
  for (const [type, id] of [
    ['file', file.body.id],
    ['folder', folder.body.id],
    ['paste', paste.body.id],
    ['collection', collection.body.id],
  ] as const) {
    const share = await t.request('POST', '/api/share', { token, json: { type, id } });
    expect(share.status).toBe(201);
    shares[type] = share.body.id;
  }
  return { userId, sessions: [token, second.body.token as string], api: api.body.token as string, shares, file };
}

describe('deleting a user', () => {
  it('ends their sessions, API tokens and shares at once', async () => {
    const bob = await equippedUser('bob');
    for (const token of [...bob.sessions, bob.api]) {
      expect((await t.request('GET', '/api/usage/stats', { token })).status).toBe(200);
    }
    expect((await t.request('GET', `/api/share/${bob.shares['file']}`)).status).toBe(200);

    expect((await t.request('DELETE', `/api/admin/users/${bob.userId}`, { token: admin })).status).toBe(204);

    for (const token of [...bob.sessions, bob.api]) {
      const res = await t.request('GET', '/api/usage/stats', { token });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('unauthorized');
      expect((await t.upload(token, 'after')).status).toBe(401);
    }
    for (const [type, id] of Object.entries(bob.shares)) {
      expect((await t.request('GET', `/api/share/${id}`)).status, type).toBe(404);
      expect((await t.request('GET', `/api/share/${id}/content`)).status, type).toBe(404);
    }
    const viaLink = await t.request('GET', `/api/file/${bob.file.body.id}/content`, {
      headers: { 'x-share-id': bob.shares['file']! },
    });
    expect(viaLink.status).toBe(404);
    expect((await t.request('GET', `/api/admin/users/${bob.userId}`, { token: admin })).status).toBe(404);
  });

  it('leaves other users untouched', async () => {
    const bob = await equippedUser('bob');
    const carol = await equippedUser('carol');
    await t.request('DELETE', `/api/admin/users/${bob.userId}`, { token: admin });
    expect((await t.request('GET', '/api/usage/stats', { token: carol.sessions[0] })).status).toBe(200);
    expect((await t.request('GET', '/api/usage/stats', { token: carol.api })).status).toBe(200);
    expect((await t.request('GET', `/api/share/${carol.shares['folder']}`)).status).toBe(200);
  });
});

describe('changing a password', () => {
  it('ends every session at once; API tokens and shares stay (documented)', async () => {
    const bob = await equippedUser('bob');
    const changed = await t.request('PATCH', `/api/admin/users/${bob.userId}`, {
      token: admin,
      json: { password: 'a-brand-new-password' },
    });
    expect(changed.status).toBe(200);
    for (const token of bob.sessions) expect((await t.request('GET', '/api/auth/me', { token })).status).toBe(401);
    expect((await t.request('GET', '/api/usage/stats', { token: bob.api })).status).toBe(200);
    expect((await t.request('GET', `/api/share/${bob.shares['paste']}`)).status).toBe(200);

    const old = await t.request('POST', '/api/auth/login', { json: { username: 'bob', password: 'bob-password' } });
    expect(old.status).toBe(401);
    const fresh = await t.request('POST', '/api/auth/login', {
      json: { username: 'bob', password: 'a-brand-new-password' },
    });
    expect(fresh.status).toBe(200);
    expect((await t.request('GET', '/api/auth/me', { token: fresh.body.token })).status).toBe(200);
  });
});

describe('revoking one credential', () => {
  it('logout ends only the session presented; deleting an API token ends it at once', async () => {
    const bob = await equippedUser('bob');
    expect((await t.request('POST', '/api/auth/logout', { token: bob.sessions[0] })).status).toBe(204);
    expect((await t.request('GET', '/api/auth/me', { token: bob.sessions[0] })).status).toBe(401);
    expect((await t.request('GET', '/api/auth/me', { token: bob.sessions[1] })).status).toBe(200);
    const tokens = await t.request('GET', '/api/token', { token: bob.sessions[1] });
    await t.request('DELETE', `/api/token/${tokens.body[0].id}`, { token: bob.sessions[1] });
    expect((await t.request('GET', '/api/usage/stats', { token: bob.api })).status).toBe(401);
  });

  it('deleting a share ends its link at once', async () => {
    const bob = await equippedUser('bob');
    await t.request('DELETE', `/api/share/${bob.shares['folder']}`, { token: bob.sessions[0] });
    expect((await t.request('GET', `/api/share/${bob.shares['folder']}`)).status).toBe(404);
  });
});
