import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';

let t: HttpTest;
afterEach(() => t.close());

describe('POST /api/auth/login', () => {
  beforeEach(async () => {
    t = await makeHttp();
    await t.user('alice');
  });

  it('answers 200 with a token and the user', async () => {
    const res = await t.request('POST', '/api/auth/login', {
      json: { username: 'alice', password: 'alice-password' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ token: expect.any(String), user: { id: expect.any(String), username: 'alice' } });
    const me = await t.request('GET', '/api/auth/me', { token: res.body.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username: 'alice', type: 'user' });
  });

  it('answers 400 when a field is missing or not a string, naming the field', async () => {
    for (const json of [{ username: 'alice' }, { password: 'x' }, { username: 1, password: 'x' }, {}]) {
      const res = await t.request('POST', '/api/auth/login', { json });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('bad_request');
      expect(res.body.issues.length).toBeGreaterThan(0);
      expect(typeof res.body.issues[0].path).toBe('string');
    }
    const res = await t.request('POST', '/api/auth/login', { json: { password: 'x' } });
    expect(res.body.message).toContain('username');
  });

  it('answers 400 on malformed JSON, on a top-level non-object and on a non-JSON body', async () => {
    const headers = { 'content-type': 'application/json' };
    for (const body of ['{"username": "alice",', 'null', '"text"', '{"__proto__": {"x": 1}}']) {
      const res = await t.request('POST', '/api/auth/login', { body, headers });
      expect(res.status, body).toBe(400);
      expect(res.body.error).toBe('bad_request');
    }
    const form = await t.request('POST', '/api/auth/login', {
      body: 'username=alice&password=alice-password',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(400);
    const array = await t.request('POST', '/api/auth/login', { json: ['alice', 'alice-password'] });
    expect(array.status).toBe(400);
  });

  it('answers 413 payload_too_large past the 16 KiB auth body cap', async () => {
    const res = await t.request('POST', '/api/auth/login', {
      json: { username: 'alice', password: 'x'.repeat(70 * 1024) },
    });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('payload_too_large');
  });

  it('answers 401 with one identical body for an unknown user and a wrong password', async () => {
    const unknown = await t.request('POST', '/api/auth/login', { json: { username: 'nobody', password: 'whatever1' } });
    const wrong = await t.request('POST', '/api/auth/login', { json: { username: 'alice', password: 'whatever1' } });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(unknown.body.error).toBe('unauthorized');
    expect(wrong.headers.get('www-authenticate')).toBe('Token, Bearer');
  });

  it('refuses unknown fields, naming them (bodies are strict)', async () => {
    const res = await t.request('POST', '/api/auth/login', {
      json: { username: 'alice', password: 'alice-password', remember: true },
    });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ path: 'remember', message: expect.any(String) }]);
  });
});

describe('the Authorization header', () => {
  beforeEach(async () => {
    t = await makeHttp();
  });

  it('accepts both schemes, token and Bearer, in any case', async () => {
    const token = await t.userToken('bob');
    for (const scheme of ['token', 'Token', 'TOKEN', 'Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      const res = await t.request('GET', '/api/auth/me', { headers: { authorization: `${scheme} ${token}` } });
      expect(res.status, scheme).toBe(200);
      expect(res.body.username).toBe('bob');
    }
  });

  it('answers 401 without a header, with a bad token and with a malformed header, in either scheme', async () => {
    const token = await t.userToken('bob');
    const cases: Array<Record<string, string>> = [{}];
    for (const scheme of ['token', 'Bearer']) {
      cases.push(
        { authorization: `${scheme} not-a-real-token` },
        { authorization: `${scheme}  ${token}` },
        { authorization: `${scheme} ${token} extra` },
        { authorization: `${scheme}\t${token}` },
        { authorization: scheme },
        { authorization: `${scheme} ${'x'.repeat(600)}` },
      );
    }
    cases.push({ authorization: `Basic ${token}` }, { authorization: `Bearer: ${token}` }, { authorization: `tokens ${token}` });
    for (const headers of cases) {
      const res = await t.request('GET', '/api/usage/stats', { headers });
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.body.error).toBe('unauthorized');
      expect(res.headers.get('www-authenticate')).toBe('Token, Bearer');
    }
  });

  it('names both forms when the header is malformed', async () => {
    const token = await t.userToken('bob');
    for (const authorization of [`Bearer  ${token}`, `Basic ${token}`, 'token']) {
      const res = await t.request('GET', '/api/auth/me', { headers: { authorization } });
      expect(res.status).toBe(401);
      expect(res.body.message, authorization).toBe('Authorization header must be "token <value>" or "Bearer <value>"');
    }
  });

  it('checks the token before reading a body', async () => {
    const res = await t.request('POST', '/api/folder', {
      body: '{broken',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(401);
  });
});

describe('session routes', () => {
  beforeEach(async () => {
    t = await makeHttp();
  });

  it('logout answers 204 and revokes only the token presented', async () => {
    const first = await t.userToken('carol');
    const second = (await t.request('POST', '/api/auth/login', {
      json: { username: 'carol', password: 'carol-password' },
    })).body.token as string;
    const res = await t.request('POST', '/api/auth/logout', { token: first });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await t.request('GET', '/api/auth/me', { token: first })).status).toBe(401);
    expect((await t.request('GET', '/api/auth/me', { token: second })).status).toBe(200);
    expect((await t.request('POST', '/api/auth/logout')).status).toBe(401);
  });

  it('me answers with id, username, type and an ISO timestamp', async () => {
    const { token, userId } = await t.user('dave');
    const res = await t.request('GET', '/api/auth/me', { token });
    expect(res.body).toEqual({
      id: userId,
      username: 'dave',
      type: 'user',
      createdAt: expect.any(String),
      mustChangePassword: false,
      mfa: { totp: false, passkeys: 0, recoveryCodesLeft: 0 },
      hasPassword: true,
      oidc: null,
      email: null,
      mail: false,
    });
    expect(res.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('register answers 403 when registration is closed', async () => {
    const res = await t.request('POST', '/api/auth/register', { json: { username: 'eve', password: 'long-password' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('forbidden');
  });
});

describe('open registration', () => {
  beforeEach(async () => {
    t = await makeHttp({ registration: 'open' });
  });

  it('answers 201 with a login result that works', async () => {
    const res = await t.request('POST', '/api/auth/register', { json: { username: 'eve', password: 'long-password' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ token: expect.any(String), user: { id: expect.any(String), username: 'eve' } });
    expect((await t.request('GET', '/api/usage/stats', { token: res.body.token })).status).toBe(200);
  });

  it('answers 400 on a short password or a missing field, 409 on a taken name', async () => {
    expect((await t.request('POST', '/api/auth/register', { json: { username: 'eve', password: 'short' } })).status).toBe(400);
    expect((await t.request('POST', '/api/auth/register', { json: { username: 'eve' } })).status).toBe(400);
    await t.request('POST', '/api/auth/register', { json: { username: 'eve', password: 'long-password' } });
    const again = await t.request('POST', '/api/auth/register', { json: { username: 'eve', password: 'long-password' } });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('conflict');
  });
});
