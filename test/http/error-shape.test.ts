import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';

let t: HttpTest;
afterEach(() => t.close());
beforeEach(async () => {
  t = await makeHttp({ limits: { storage: 10, files: 1, folders: 1, pastes: 1, collections: 1, shares: 1, tokens: 1 } });
});

describe('one error shape for validation, with messages a person can act on', () => {
  it('names each missing or mistyped field in issues, in words', async () => {
    const missing = await t.request('POST', '/api/auth/login', { json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.issues).toEqual([
      { path: 'username', message: 'username is required' },
      { path: 'password', message: 'password is required' },
    ]);
    expect(missing.body.message).toBe('username is required; password is required');
    const token = await t.userToken('v');
    const typed = await t.request('POST', '/api/folder', { token, json: { name: 5 } });
    expect(typed.body.issues).toEqual([{ path: 'name', message: 'name must be a string' }]);
    const share = await t.request('POST', '/api/share', { token, json: { type: 'album', id: 'x', maxViews: 0 } });
    expect(share.body.issues).toEqual([
      { path: 'type', message: 'type must be one of "file", "folder", "collection", "paste"' },
      { path: 'maxViews', message: 'maxViews must be at least 1' },
    ]);
  });

  it('gives a field the core refuses the same issues shape', async () => {
    const token = await t.userToken('w');
    const empty = await t.request('POST', '/api/folder', { token, json: { name: '\u200b' } });
    expect(empty.status).toBe(400);
    expect(empty.body.issues).toEqual([{ path: 'name', message: empty.body.message }]);
    expect(empty.body.message).toMatch(/^name /);
  });

  it('says which limit, its maximum and what is in use', async () => {
    const token = await t.userToken('l');
    expect((await t.request('POST', '/api/folder', { token, json: { name: 'a' } })).status).toBe(201);
    const refused = await t.request('POST', '/api/folder', { token, json: { name: 'b' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'limit_reached', limit: 'folders', max: 1, current: 1 });
    expect(refused.body.message).toBe('The folders limit has been reached: 1 of at most 1 in use');
    const storage = await t.upload(token, '01234567890');
    expect(storage.body).toMatchObject({ limit: 'storage', max: '10', current: '0' });
    expect(storage.body.message).toContain('at most 10 bytes');
  });

  it('says the limit a body is over', async () => {
    const big = await t.request('POST', '/api/auth/login', { json: { username: 'x'.repeat(20_000), password: 'y' } });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ error: 'payload_too_large', maxBytes: 16384 });
    expect(big.body.message).toContain('16384 bytes');
  });
});
