import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';

/** What a same-origin page's fetch sends: the CSRF header, and the origin the browser fills in itself. */
const OWN_PAGE = (t: HttpTest) => ({ 'x-coffer-csrf': '1', origin: t.url, 'sec-fetch-site': 'same-origin' });

let t: HttpTest;
let admin: string;
afterEach(() => t.close());
beforeEach(async () => {
  t = await makeHttp({ registration: 'open' });
  admin = await t.adminToken();
});

const login = async (username: string, password: string): Promise<string> => {
  const res = await t.request('POST', '/api/auth/login', { json: { username, password } });
  expect(res.status).toBe(200);
  return res.body.token;
};
const meOf = async (token: string) => (await t.request('GET', '/api/auth/me', { token })).body;

/** Signs a browser in; answers POST /api/auth/session's body and what GET /api/auth/session then says. */
async function browser(username: string, password: string) {
  const signIn = await t.request('POST', '/api/auth/session', {
    json: { username, password },
    headers: OWN_PAGE(t),
  });
  expect(signIn.status).toBe(200);
  const cookie = (signIn.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
  const session = await t.request('GET', '/api/auth/session', { headers: { cookie } });
  return { signedIn: signIn.body, session: session.body };
}

describe('mustChangePassword over HTTP', () => {
  it('is true for a user an admin created, in every Me view, until the user changes the password', async () => {
    const created = await t.request('POST', '/api/admin/users', {
      token: admin,
      json: { username: 'alice', password: 'set-by-the-admin' },
    });
    expect(created.status).toBe(201);
    // The admin's usage record stays the spec's shape.
    expect(created.body).not.toHaveProperty('mustChangePassword');

    const token = await login('alice', 'set-by-the-admin');
    expect(await meOf(token)).toMatchObject({ username: 'alice', mustChangePassword: true });
    const { signedIn, session } = await browser('alice', 'set-by-the-admin');
    expect(signedIn).toMatchObject({ username: 'alice', mustChangePassword: true });
    expect(session).toMatchObject({ user: { username: 'alice', mustChangePassword: true }, persistence: 'memory' });

    // The API refuses nothing because of it: reads and writes work, and so does a new API token.
    expect((await t.request('POST', '/api/folder', { token, json: { name: 'inbox' } })).status).toBe(201);
    const api = await t.request('POST', '/api/token', { token, json: { name: 'ci' } });
    expect(api.status).toBe(201);
    expect((await t.request('GET', '/api/usage/stats', { token: api.body.token })).status).toBe(200);

    const changed = await t.request('POST', '/api/auth/password', {
      token,
      json: { currentPassword: 'set-by-the-admin', newPassword: 'chosen-by-alice' },
    });
    expect(changed.status).toBe(204);
    expect(await meOf(token)).toMatchObject({ mustChangePassword: false });
    expect((await browser('alice', 'chosen-by-alice')).session.user).toMatchObject({ mustChangePassword: false });
    // The API token outlives both the request and the change.
    expect((await t.request('GET', '/api/usage/stats', { token: api.body.token })).status).toBe(200);
  });

  it('is set again by an admin reset of the password (PATCH password), and by nothing else the admin changes', async () => {
    const { userId } = await t.user('bob');
    const bob = await login('bob', 'bob-password');
    expect(await meOf(bob)).toMatchObject({ mustChangePassword: false });

    const limits = await t.request('PATCH', `/api/admin/users/${userId}`, {
      token: admin,
      json: { limits: { files: 3 }, type: 'user' },
    });
    expect(limits.status).toBe(200);
    expect(await meOf(bob)).toMatchObject({ mustChangePassword: false });

    const reset = await t.request('PATCH', `/api/admin/users/${userId}`, {
      token: admin,
      json: { password: 'reset-by-the-admin' },
    });
    expect(reset.status).toBe(200);
    expect(await meOf(await login('bob', 'reset-by-the-admin'))).toMatchObject({ mustChangePassword: true });
  });

  it('is false after registration, and absent from the login result, which keeps the spec shape', async () => {
    const registered = await t.request('POST', '/api/auth/register', {
      json: { username: 'eve', password: 'eve-chose-this' },
    });
    expect(registered.status).toBe(201);
    expect(registered.body.user).toEqual({ id: expect.any(String), username: 'eve' });
    expect(await meOf(registered.body.token)).toMatchObject({ mustChangePassword: false });

    const login = await t.request('POST', '/api/auth/login', { json: { username: 'eve', password: 'eve-chose-this' } });
    expect(login.body.user).toEqual({ id: expect.any(String), username: 'eve' });
    const browserSignUp = await t.request('POST', '/api/auth/session', {
      json: { username: 'frank', password: 'frank-chose-this', register: true },
      headers: OWN_PAGE(t),
    });
    expect(browserSignUp.status).toBe(201);
    expect(browserSignUp.body).toMatchObject({ username: 'frank', mustChangePassword: false });
  });
});
