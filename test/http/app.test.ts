import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';

let t: HttpTest;
beforeEach(async () => {
  t = await makeHttp();
});
afterEach(() => t.close());

describe('the app as a whole', () => {
  it('GET /health answers ok and names the persistence', async () => {
    const res = await t.request('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', persistence: 'memory' });
  });

  it('answers unknown routes with 404 not_found in the one error shape', async () => {
    for (const path of ['/nope', '/api/unknown', '/api/file/x/y/z']) {
      const res = await t.request('GET', path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'not_found', message: expect.any(String) });
    }
  });

  it('answers a wrong method on a known path with 405, bad_request and Allow', async () => {
    const res = await t.request('PUT', '/api/auth/login', { json: {} });
    expect(res.status).toBe(405);
    expect(res.body.error).toBe('bad_request');
    expect(res.headers.get('allow')).toContain('POST');
  });

  it('sends X-Content-Type-Options: nosniff on every response', async () => {
    const token = await t.userToken('alice');
    const replies = await Promise.all([
      t.request('GET', '/health'),
      t.request('GET', '/nope'),
      t.request('GET', '/api/usage/stats'),
      t.request('GET', '/api/usage/stats', { token }),
      t.request('POST', '/api/folder', { token, json: {} }),
      t.request('DELETE', '/api/auth/me', { token }),
    ]);
    for (const res of replies) expect(res.headers.get('x-content-type-options'), String(res.status)).toBe('nosniff');
  });

  it('answers 500 internal without leaking the cause, and logs it', async () => {
    const logged: unknown[] = [];
    const local = await makeHttp({ logger: { info() {}, warn() {}, error: (obj) => logged.push(obj) } });
    try {
      const token = await local.userToken('alice');
      local.core.getUsage.execute = async () => {
        throw new Error('secret database detail');
      };
      const res = await local.request('GET', '/api/usage/stats', { token });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'internal', message: 'Internal server error' });
      expect(res.text).not.toContain('secret');
      expect(logged).toHaveLength(1);
    } finally {
      await local.close();
    }
  });

  it('answers every protected route with 401 for no token, a bad token and a bad scheme', async () => {
    const token = await t.userToken('alice');
    const routes: Array<[string, string, unknown?]> = [
      ['POST', '/api/auth/logout'],
      ['GET', '/api/auth/me'],
      ['POST', '/api/auth/password', { currentPassword: 'x', newPassword: 'long-password' }],
      ['POST', '/api/token', { name: 'x' }],
      ['GET', '/api/token'],
      ['DELETE', '/api/token/x'],
      ['POST', '/api/file'],
      ['GET', '/api/file/x'],
      ['GET', '/api/file/x/content'],
      ['PATCH', '/api/file/x', { name: 'y' }],
      ['DELETE', '/api/file/x'],
      ['POST', '/api/folder', { name: 'x' }],
      ['GET', '/api/folder'],
      ['GET', '/api/folder/x'],
      ['PATCH', '/api/folder/x', { name: 'y' }],
      ['DELETE', '/api/folder/x'],
      ['POST', '/api/collection', { name: 'x' }],
      ['GET', '/api/collection'],
      ['GET', '/api/collection/x'],
      ['PATCH', '/api/collection/x', { name: 'y' }],
      ['DELETE', '/api/collection/x'],
      ['PUT', '/api/collection/x/file/y'],
      ['DELETE', '/api/collection/x/file/y'],
      ['POST', '/api/paste', { content: 'x' }],
      ['GET', '/api/paste'],
      ['GET', '/api/paste/x'],
      ['PATCH', '/api/paste/x', { content: 'y' }],
      ['DELETE', '/api/paste/x'],
      ['POST', '/api/share', { type: 'file', id: 'x' }],
      ['GET', '/api/share'],
      ['PATCH', '/api/share/x', { password: null }],
      ['DELETE', '/api/share/x'],
      ['POST', '/api/search', { query: 'x' }],
      ['GET', '/api/usage/stats'],
      ['GET', '/api/admin/users'],
      ['GET', '/api/admin/users/x'],
      ['POST', '/api/admin/users', { username: 'x', password: 'long-password' }],
      ['PATCH', '/api/admin/users/x', { type: 'user' }],
      ['DELETE', '/api/admin/users/x'],
    ];
    const variants: Array<Record<string, string>> = [
      {},
      { authorization: 'token wrong-token' },
      { authorization: `Basic ${token}` },
    ];
    for (const [method, path, json] of routes) {
      for (const headers of variants) {
        const res = await t.request(method, path, { json, headers });
        expect(res.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.body.error).toBe('unauthorized');
      }
    }
  });

  it('answers HEAD on a JSON route with headers only', async () => {
    const res = await t.request('HEAD', '/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.bytes.length).toBe(0);
  });

  it('answers ids longer than 128 characters with 400', async () => {
    const token = await t.userToken('alice');
    const res = await t.request('GET', `/api/folder/${'a'.repeat(129)}`, { token });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('bad_request');
  });
});
