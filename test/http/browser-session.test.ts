import { afterEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest, type Reply } from '../support/http.js';

/** What a same-origin page's fetch sends: the CSRF header, and the origin the browser fills in itself. */
const OWN_PAGE = (t: HttpTest) => ({ 'x-coffer-csrf': '1', origin: t.url, 'sec-fetch-site': 'same-origin' });

let t: HttpTest;
afterEach(() => t?.close());

async function signIn(extra: Record<string, string> = {}, password = 'alice-password'): Promise<Reply> {
  await t.user('alice');
  return t.request('POST', '/api/auth/session', {
    json: { username: 'alice', password },
    headers: { ...OWN_PAGE(t), ...extra },
  });
}

function setCookies(reply: Reply): string[] {
  return reply.headers.getSetCookie();
}

/** The `name=value` pair a browser would send back. */
async function cookieOf(extra: Record<string, string> = {}): Promise<string> {
  const reply = await signIn(extra);
  expect(reply.status).toBe(200);
  const [line] = setCookies(reply);
  return (line ?? '').split(';')[0] ?? '';
}

describe('browser sign-in (POST /api/auth/session)', () => {
  it('puts the session in an HttpOnly, SameSite=Strict cookie and never in the answer', async () => {
    t = await makeHttp();
    const reply = await signIn();
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ username: 'alice', type: 'user' });
    expect(reply.body).not.toHaveProperty('token');
    const [line, ...more] = setCookies(reply);
    expect(more).toEqual([]);
    expect(line).toMatch(/^coffer_session=[A-Za-z0-9_-]{20,}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
    expect(line).not.toContain('Secure');
    expect(reply.headers.get('cache-control')).toBe('no-store');
    const cookie = (line ?? '').split(';')[0] ?? '';
    expect(reply.text).not.toContain(cookie.split('=')[1]);

    const me = await t.request('GET', '/api/auth/me', { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(me.body.username).toBe('alice');
  });

  it('is Secure with the __Host- prefix when the public URL is HTTPS, or a trusted proxy says HTTPS', async () => {
    t = await makeHttp({ publicUrl: 'https://files.example' });
    const [line] = setCookies(await signIn({ origin: 'https://files.example' }));
    expect(line).toMatch(/^__Host-coffer_session=[^;]+; Path=\/; HttpOnly; SameSite=Strict; Secure; Max-Age=\d+$/);
    await t.close();

    t = await makeHttp({ trustProxy: 1 });
    const [proxied] = setCookies(await signIn({ 'x-forwarded-proto': 'https', origin: 'https' + t.url.slice(4) }));
    expect(proxied).toContain('; Secure');
    const me = await t.request('GET', '/api/auth/me', { headers: { cookie: (proxied ?? '').split(';')[0] ?? '' } });
    expect(me.status).toBe(200);
  });

  it('refuses a sign-in from another origin or without the CSRF header (login CSRF), and sets no cookie', async () => {
    t = await makeHttp();
    const cases: Record<string, string>[] = [
      { 'x-coffer-csrf': '' },
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: 'http://sub.127.0.0.1.nip.example' },
    ];
    for (const headers of cases) {
      const reply = await signIn(headers);
      expect(reply.status, JSON.stringify(headers)).toBe(403);
      expect(reply.body.error).toBe('forbidden');
      expect(setCookies(reply)).toEqual([]);
    }
  });

  it('answers a wrong password 401 with no cookie, as the token login does', async () => {
    t = await makeHttp();
    const reply = await signIn({}, 'wrong-password');
    expect(reply.status).toBe(401);
    expect(setCookies(reply)).toEqual([]);
  });

  it('registers into a cookie when registration is open (201), and not when closed (403)', async () => {
    t = await makeHttp({ registration: 'open' });
    const json = { username: 'bob', password: 'bob-password', register: true };
    const reply = await t.request('POST', '/api/auth/session', { json, headers: OWN_PAGE(t) });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ username: 'bob' });
    expect(reply.body).not.toHaveProperty('token');
    expect(setCookies(reply)[0]).toMatch(/^coffer_session=/);
    await t.close();

    t = await makeHttp();
    const closed = await t.request('POST', '/api/auth/session', { json, headers: OWN_PAGE(t) });
    expect(closed.status).toBe(403);
    expect(setCookies(closed)).toEqual([]);
  });
});

describe('requests authenticated by the cookie', () => {
  it('change data only from our own origin and with X-Coffer-CSRF; anything else is 403 and changes nothing', async () => {
    t = await makeHttp();
    const cookie = await cookieOf();
    const create = (headers: Record<string, string>) =>
      t.request('POST', '/api/folder', { json: { name: 'Docs' }, headers: { cookie, ...headers } });

    const refused: Record<string, string>[] = [
      {},
      { origin: t.url },
      { 'x-coffer-csrf': '0', origin: t.url },
      { 'x-coffer-csrf': '1', origin: 'http://evil.example' },
      { 'x-coffer-csrf': '1', 'sec-fetch-site': 'same-site' },
      { 'x-coffer-csrf': '1', 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of refused) {
      const reply = await create(headers);
      expect(reply.status, JSON.stringify(headers)).toBe(403);
      expect(reply.body.error).toBe('forbidden');
    }
    const root = await t.request('GET', '/api/folder', { headers: { cookie } });
    expect(root.body.folders).toEqual([]);

    expect((await create(OWN_PAGE(t))).status).toBe(201);
    expect((await t.request('GET', '/api/folder', { headers: { cookie } })).body.folders).toHaveLength(1);
  });

  it('read only for our own origin: a cross-site or same-site read is served as anonymous (401)', async () => {
    t = await makeHttp();
    const cookie = await cookieOf();
    const read = (site: string) => t.request('GET', '/api/usage/stats', { headers: { cookie, 'sec-fetch-site': site } });
    expect((await read('same-origin')).status).toBe(200);
    expect((await read('none')).status).toBe(200);
    expect((await read('cross-site')).status).toBe(401);
    expect((await read('same-site')).status).toBe(401);
    const foreign = await t.request('GET', '/api/usage/stats', { headers: { cookie, origin: 'http://evil.example' } });
    expect(foreign.status).toBe(401);
  });

  it('downloads a file through a plain link: the cookie alone, no header', async () => {
    t = await makeHttp();
    const cookie = await cookieOf();
    const token = await t.userToken('alice');
    const file = await t.upload(token, 'hello bytes', { filename: 'a.txt' });
    const reply = await t.request('GET', `/api/file/${file.body.id}/content`, {
      headers: { cookie, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate' },
    });
    expect(reply.status).toBe(200);
    expect(reply.text).toBe('hello bytes');
  });

  it('leave API clients alone: an Authorization header needs no CSRF header and wins over any cookie', async () => {
    t = await makeHttp();
    const token = await t.userToken('bob');
    const cookie = await cookieOf();
    const reply = await t.request('POST', '/api/folder', { token, json: { name: 'Bob' }, headers: { cookie } });
    expect(reply.status).toBe(201);
    const bob = await t.request('GET', '/api/folder', { token });
    expect(bob.body.folders.map((f: { name: string }) => f.name)).toEqual(['Bob']);
  });

  it('treat a cookie whose session ended as no session: public reads still work, owner routes answer 401', async () => {
    t = await makeHttp();
    const cookie = await cookieOf();
    const token = await t.userToken('alice');
    const paste = await t.request('POST', '/api/paste', { token, json: { content: 'public words' } });
    const share = await t.request('POST', '/api/share', { token, json: { type: 'paste', id: paste.body.id } });
    expect((await t.request('POST', '/api/auth/logout', { headers: { cookie, ...OWN_PAGE(t) } })).status).toBe(204);

    expect((await t.request('GET', `/api/share/${share.body.id}`, { headers: { cookie } })).status).toBe(200);
    expect((await t.request('GET', '/api/auth/me', { headers: { cookie } })).status).toBe(401);
  });
});

describe('signing out', () => {
  it('revokes the session and clears the cookie; a logout without the CSRF header is refused', async () => {
    t = await makeHttp();
    const cookie = await cookieOf();
    expect((await t.request('POST', '/api/auth/logout', { headers: { cookie } })).status).toBe(403);
    expect((await t.request('GET', '/api/auth/me', { headers: { cookie } })).status).toBe(200);

    const out = await t.request('POST', '/api/auth/logout', { headers: { cookie, ...OWN_PAGE(t) } });
    expect(out.status).toBe(204);
    expect(setCookies(out)).toContain('coffer_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0');
    expect((await t.request('GET', '/api/auth/me', { headers: { cookie } })).status).toBe(401);
  });

  it('everywhere ends every session of the user, header ones too, and keeps API tokens', async () => {
    t = await makeHttp();
    const cookie = await cookieOf();
    const other = await t.userToken('alice');
    const api = await t.request('POST', '/api/token', { token: other, json: { name: 'cli' } });
    const out = await t.request('POST', '/api/auth/logout/everywhere', { headers: { cookie, ...OWN_PAGE(t) } });
    expect(out.status).toBe(204);
    expect((await t.request('GET', '/api/auth/me', { headers: { cookie } })).status).toBe(401);
    expect((await t.request('GET', '/api/auth/me', { token: other })).status).toBe(401);
    expect((await t.request('GET', '/api/usage/stats', { token: api.body.token })).status).toBe(200);
  });
});

describe('CORS', () => {
  it('never grants another origin: no Access-Control-Allow-* on a preflight or on an answer', async () => {
    t = await makeHttp();
    const cookie = await cookieOf();
    // Raw: a preflight is no operation of the document, so the validating test client would refuse its answer.
    const preflight = await fetch(`${t.url}/api/folder`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-coffer-csrf, content-type',
      },
    });
    const read = await t.request('GET', '/api/auth/me', { headers: { cookie, origin: 'http://evil.example' } });
    for (const reply of [preflight, read]) {
      const granted = [...reply.headers.keys()].filter((name) => name.startsWith('access-control-'));
      expect(granted).toEqual([]);
    }
  });
});

describe('GET /api/auth/session', () => {
  it('names the signed-in user, or answers null (200) when signed out, so a page load logs no error', async () => {
    t = await makeHttp();
    const signedOut = { user: null, registration: false, persistence: 'memory' };
    expect((await t.request('GET', '/api/auth/session')).body).toEqual(signedOut);
    const cookie = await cookieOf();
    const reply = await t.request('GET', '/api/auth/session', { headers: { cookie } });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      user: { id: expect.any(String), username: 'alice', type: 'user', createdAt: expect.any(String), mustChangePassword: false, mfa: { totp: false, passkeys: 0, recoveryCodesLeft: 0 }, hasPassword: true, oidc: null },
      registration: false,
      persistence: 'memory',
    });
    expect(reply.headers.get('cache-control')).toBe('no-store');
    const foreign = await t.request('GET', '/api/auth/session', { headers: { cookie, 'sec-fetch-site': 'cross-site' } });
    expect(foreign.body).toEqual(signedOut);
    await t.close();

    t = await makeHttp({ registration: 'open' });
    expect((await t.request('GET', '/api/auth/session')).body).toEqual({ ...signedOut, registration: true });
  });
});
