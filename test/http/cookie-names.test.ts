import { afterEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';

// Both cookies are read through Koa's ctx.cookies, with one rule for a name sent twice: the first value counts, as
// browsers send the most specific (longest path), then the oldest, first.

let t: HttpTest;
afterEach(() => t?.close());

const OWN_PAGE = (http: HttpTest) => ({ 'x-coffer-csrf': '1', origin: http.url, 'sec-fetch-site': 'same-origin' });

async function sessionToken(http: HttpTest): Promise<string> {
  await http.user('alice');
  const reply = await http.request('POST', '/api/auth/session', {
    json: { username: 'alice', password: 'alice-password' },
    headers: OWN_PAGE(http),
  });
  expect(reply.status).toBe(200);
  return /^coffer_session=([^;]+)/.exec(reply.headers.getSetCookie()[0] ?? '')![1]!;
}

describe('the session cookie', () => {
  it('counts the first value of a name sent twice, and the __Host- name over the plain one', async () => {
    t = await makeHttp();
    const token = await sessionToken(t);
    const me = async (cookie: string) => (await t.request('GET', '/api/auth/me', { headers: { cookie } })).status;
    expect(await me(`coffer_session=${token}`)).toBe(200);
    expect(await me(`coffer_session=${token}; coffer_session=stale-session-value`)).toBe(200);
    expect(await me(`coffer_session=stale-session-value; coffer_session=${token}`)).toBe(401);
    expect(await me(`other=1; __Host-coffer_session=${token}; coffer_session=stale-session-value`)).toBe(200);
    expect(await me(`coffer_session=${token}; __Host-coffer_session=stale-session-value`)).toBe(401);
    // RFC 6265 lets a cookie value be quoted; the quotes are not part of it.
    expect(await me(`coffer_session="${token}"`)).toBe(200);
    expect(await me(`coffer_session=${token}x`)).toBe(401);
  });
});

describe('the grant cookie of a share page', () => {
  it('counts the first value of a name sent twice', async () => {
    t = await makeHttp();
    const token = await t.userToken('alice');
    const file = await t.upload(token, 'granted bytes', { filename: 'a.txt', type: 'text/plain' });
    const share = await t.request('POST', '/api/share', {
      token,
      json: { type: 'file', id: file.body.id, password: 'correct horse' },
    });
    const id = share.body.id as string;
    const unlocked = await t.request('POST', `/s/${id}/unlock`, { json: { password: 'correct horse' } });
    const grant = /^coffer_share=([^;]+)/.exec(unlocked.headers.get('set-cookie') ?? '')![1]!;
    // Shaped like a grant (a stamp and a MAC), but not one the server made.
    const forged = `${grant.split('.')[0]}.${'A'.repeat(43)}`;
    const content = async (cookie: string) =>
      (await t.request('GET', `/s/${id}/content`, { headers: { cookie } })).status;
    expect(await content(`coffer_share=${grant}`)).toBe(200);
    expect(await content(`coffer_share=${grant}; coffer_share=${forged}`)).toBe(200);
    expect(await content(`coffer_share=${forged}; coffer_share=${grant}`)).toBe(401);
    expect(await content(`coffer_share=not-a-grant; coffer_share=${grant}`)).toBe(401);
  });
});
