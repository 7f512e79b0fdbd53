import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';

let t: HttpTest;
let alice: string;
afterEach(() => t.close());
beforeEach(async () => {
  t = await makeHttp();
  alice = await t.userToken('alice');
});

const newToken = async (name = 'ci') => {
  const res = await t.request('POST', '/api/token', { token: alice, json: { name } });
  expect(res.status).toBe(201);
  return res.body as { id: string; name: string; token: string; createdAt: string };
};

describe('API tokens', () => {
  it('POST answers 201 with the secret once; GET lists without secrets', async () => {
    const created = await newToken('laptop');
    expect(created).toEqual({ id: expect.any(String), name: 'laptop', scope: 'uploader', token: expect.any(String), createdAt: expect.any(String) });
    const list = await t.request('GET', '/api/token', { token: alice });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([{ id: created.id, name: 'laptop', scope: 'uploader', createdAt: created.createdAt }]);
    expect(list.text).not.toContain(created.token);
  });

  it('POST with scope dav makes a token for WebDAV only: listed with its scope, forbidden on the API', async () => {
    const created = (await t.request('POST', '/api/token', { token: alice, json: { name: 'drive', scope: 'dav' } })).body;
    expect(created).toMatchObject({ name: 'drive', scope: 'dav' });
    t.scan.addToken(created.token);
    expect((await t.request('GET', '/api/usage/stats', { token: created.token })).status).toBe(403);
    expect((await t.request('POST', '/api/token', { token: alice, json: { name: 'x', scope: 'admin' } })).status).toBe(400);
    expect((await t.request('DELETE', `/api/token/${created.id}`, { token: alice })).status).toBe(204);
  });

  it('POST answers 400 without a string name', async () => {
    for (const json of [{}, { name: 7 }, { name: '' }]) {
      expect((await t.request('POST', '/api/token', { token: alice, json })).status).toBe(400);
    }
  });

  it('an API token reaches exactly its four routes', async () => {
    const api = (await newToken()).token;
    const file = await t.upload(api, 'from ci');
    expect(file.status).toBe(201);
    expect((await t.request('POST', '/api/paste', { token: api, json: { content: 'log' } })).status).toBe(201);
    expect((await t.request('POST', '/api/share', { token: api, json: { type: 'file', id: file.body.id } })).status)
      .toBe(201);
    expect((await t.request('GET', '/api/usage/stats', { token: api })).status).toBe(200);

    const forbidden: Array<[string, string, unknown?]> = [
      ['GET', `/api/file/${file.body.id}`],
      ['GET', `/api/file/${file.body.id}/content`],
      ['PATCH', `/api/file/${file.body.id}`, { name: 'x' }],
      ['DELETE', `/api/file/${file.body.id}`],
      ['GET', '/api/folder'],
      ['POST', '/api/folder', { name: 'x' }],
      ['GET', '/api/share'],
      ['POST', '/api/search', { query: 'x' }],
      ['POST', '/api/token', { name: 'y' }],
      ['GET', '/api/token'],
      ['GET', '/api/admin/users'],
    ];
    for (const [method, path, json] of forbidden) {
      const res = await t.request(method, path, { token: api, json });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('forbidden');
    }
  });

  it('DELETE answers 204 and the token stops working; 404 for another user', async () => {
    const created = await newToken();
    const bob = await t.userToken('bob');
    expect((await t.request('DELETE', `/api/token/${created.id}`, { token: bob })).status).toBe(404);
    expect((await t.request('DELETE', `/api/token/${created.id}`, { token: alice })).status).toBe(204);
    expect((await t.request('GET', '/api/usage/stats', { token: created.token })).status).toBe(401);
    expect((await t.request('DELETE', `/api/token/${created.id}`, { token: alice })).status).toBe(404);
  });

  it('answers 401 without a token', async () => {
    expect((await t.request('GET', '/api/token')).status).toBe(401);
    expect((await t.request('POST', '/api/token', { json: { name: 'x' } })).status).toBe(401);
  });
});
