import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backends, type Backend } from '../support/backends.js';
import { makeHttp } from '../support/http.js';

describe.each(await backends())('strict JSON bodies (%s)', (_, make) => {
  let t: Backend;
  let token: string;
  let admin: string;
  beforeEach(async () => {
    t = await make();
    token = await t.userToken('alice');
    admin = await t.adminToken();
  });
  afterEach(() => t.close());

  const upload = (content: string) => {
    const body = new FormData();
    body.append('file', new Blob([content], { type: 'text/plain' }), 'hello.txt');
    return t.request('POST', '/api/file', { token, body });
  };

  /** Every route that takes a JSON body, with a body that would succeed but for one field it does not know. */
  async function routes(): Promise<[string, string, Record<string, unknown>, string][]> {
    const file = (await upload('hello')).body;
    const folder = (await t.request('POST', '/api/folder', { token, json: { name: 'F' } })).body;
    const collection = (await t.request('POST', '/api/collection', { token, json: { name: 'C' } })).body;
    const paste = (await t.request('POST', '/api/paste', { token, json: { content: 'x' } })).body;
    const share = (await t.request('POST', '/api/share', { token, json: { type: 'file', id: file.id } })).body;
    const alice = (await t.request('GET', '/api/auth/me', { token })).body;
    return [
      ['POST', '/api/auth/login', { username: 'alice', password: 'alice-password' }, ''],
      ['POST', '/api/token', { name: 'sharex' }, token],
      ['PATCH', `/api/file/${file.id}`, { name: 'renamed.txt' }, token],
      ['POST', '/api/folder', { name: 'G' }, token],
      ['PATCH', `/api/folder/${folder.id}`, { name: 'H' }, token],
      ['POST', '/api/collection', { name: 'D' }, token],
      ['PATCH', `/api/collection/${collection.id}`, { name: 'E' }, token],
      ['POST', '/api/paste', { content: 'y' }, token],
      ['PATCH', `/api/paste/${paste.id}`, { content: 'z' }, token],
      ['POST', '/api/share', { type: 'folder', id: folder.id }, token],
      ['PATCH', `/api/share/${share.id}`, { password: null }, token],
      ['POST', '/api/search', { query: 'x' }, token],
      ['POST', '/api/admin/users', { username: 'carol', password: 'carol-password' }, admin],
      ['PATCH', `/api/admin/users/${alice.id}`, { type: 'user' }, admin],
    ];
  }

  it('answers 400 naming the unknown field on every JSON route, and changes nothing', async () => {
    for (const [method, path, body, auth] of await routes()) {
      const before = await t.request('GET', '/api/usage/stats', { token });
      const res = await t.request(method, path, { token: auth || undefined, json: { ...body, burnAfterReading: true } });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.error).toBe('bad_request');
      expect(res.body.issues, `${method} ${path}`).toEqual([{ path: 'burnAfterReading', message: expect.any(String) }]);
      expect(res.body.message).toContain('burnAfterReading');
      expect((await t.request('GET', '/api/usage/stats', { token })).body).toEqual(before.body);
    }
  });

  it('names an unknown field nested in an object by its path', async () => {
    const alice = (await t.request('GET', '/api/auth/me', { token })).body;
    const res = await t.request('PATCH', `/api/admin/users/${alice.id}`, {
      token: admin,
      json: { limits: { files: 3, bandwidth: 1 } },
    });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ path: 'limits.bandwidth', message: expect.any(String) }]);
  });
});

it('refuses an unknown field at registration too', async () => {
  const open = await makeHttp({ registration: 'open' });
  try {
    const res = await open.request('POST', '/api/auth/register', {
      json: { username: 'newcomer', password: 'newcomer-password', burnAfterReading: true },
    });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ path: 'burnAfterReading', message: expect.any(String) }]);
    expect((await open.request('POST', '/api/auth/login', { json: { username: 'newcomer', password: 'newcomer-password' } })).status).toBe(401);
  } finally {
    await open.close();
  }
});
