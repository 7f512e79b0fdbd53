import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, type Backend } from '../support/backends.js';

/** The browser session on every persistence: the cookie is an ordinary session, and ends like one. */
describe.each(await backends())('browser sessions (%s)', (_, make) => {
  let b: Backend;
  beforeAll(async () => {
    b = await make();
  });
  afterAll(() => b?.close());

  const ownPage = () => ({ 'x-coffer-csrf': '1', origin: b.url, 'sec-fetch-site': 'same-origin' });

  async function cookie(name: string): Promise<string> {
    await b.userToken(name);
    const reply = await b.request('POST', '/api/auth/session', {
      json: { username: name, password: `${name}-password` },
      headers: ownPage(),
    });
    expect(reply.status).toBe(200);
    return (reply.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
  }

  it('a cookie writes only with the CSRF header from our origin, and logout everywhere ends every session', async () => {
    const jar = await cookie('dora');
    const token = await b.userToken('dora');
    const create = (headers: Record<string, string>) =>
      b.request('POST', '/api/folder', { json: { name: 'Notes' }, headers: { cookie: jar, ...headers } });
    expect((await create({ origin: b.url })).status).toBe(403);
    expect((await create({ ...ownPage(), 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await create(ownPage())).status).toBe(201);
    expect((await b.request('GET', '/api/folder', { token })).body.folders).toHaveLength(1);

    const out = await b.request('POST', '/api/auth/logout/everywhere', { headers: { cookie: jar, ...ownPage() } });
    expect(out.status).toBe(204);
    expect((await b.request('GET', '/api/auth/session', { headers: { cookie: jar } })).body).toMatchObject({ user: null });
    expect((await b.request('GET', '/api/auth/me', { token })).status).toBe(401);
  });
});
