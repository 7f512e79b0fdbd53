import { afterEach, describe, expect, it } from 'vitest';
import type { Ports } from '../../src/application/ports/index.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { rawRequest } from '../support/raw-http.js';

let t: HttpTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const PASSWORD = 'correct horse';

/** Counts the hasher's verifications: a grant must open the share without one. */
function countingVerify(calls: { verify: number }) {
  return (ports: Ports): Ports => ({
    ...ports,
    hasher: {
      hash: (password) => ports.hasher.hash(password),
      verify: (hash, password) => {
        calls.verify++;
        return ports.hasher.verify(hash, password);
      },
    },
  });
}

async function setUp(options: Parameters<typeof makeHttp>[0] = {}) {
  const http = await makeHttp(options);
  t = http;
  const token = await http.userToken('alice');
  const file = await http.upload(token, 'the secret bytes', { filename: 'plan.txt', type: 'text/plain' });
  const shared = async (password = PASSWORD) => {
    const res = await http.request('POST', '/api/share', {
      token,
      json: { type: 'file', id: (await http.upload(token, 'x', { filename: 'y.txt' })).body.id, password },
    });
    return res.body.id as string;
  };
  const share = await http.request('POST', '/api/share', {
    token,
    json: { type: 'file', id: file.body.id, password: PASSWORD },
  });
  return { http, token, id: share.body.id as string, shared };
}

async function unlock(http: HttpTest, id: string, password: string) {
  const res = await http.request('POST', `/s/${id}/unlock`, { json: { password } });
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  return { res, cookie };
}

describe('unlocking a protected share for its page', () => {
  it('a wrong password says so and sets nothing; the right one answers the share and a grant cookie for it only', async () => {
    const { http, id } = await setUp();
    const wrong = await unlock(http, id, 'nope nope');
    expect(wrong.res.status).toBe(401);
    expect(wrong.res.body.error).toBe('share_password_invalid');
    expect(wrong.res.headers.get('set-cookie')).toBeNull();

    const right = await unlock(http, id, PASSWORD);
    expect(right.res.status).toBe(200);
    expect(right.res.body).toMatchObject({ id, views: 1, file: { name: 'plan.txt' }, url: `${http.url}/s/${id}` });
    const attributes = right.res.headers.get('set-cookie')!.split('; ');
    expect(attributes).toEqual(
      expect.arrayContaining([`Path=/s/${id}`, 'Max-Age=7200', 'HttpOnly', 'SameSite=Strict']),
    );
    expect(attributes).not.toContain('Secure');
    expect(right.res.text).not.toContain(PASSWORD);
    expect(right.cookie).not.toContain(PASSWORD);
  });

  it('plain links work with the grant: the page, content, ranges; without it, 401', async () => {
    const { http, id } = await setUp();
    const { cookie } = await unlock(http, id, PASSWORD);
    const headers = { Cookie: cookie };
    const refused = await http.request('GET', `/s/${id}/content`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('cache-control')).toBe('no-store');

    const page = await http.request('GET', `/s/${id}`, { headers });
    expect(page.text).toContain('"state":"open"');
    const whole = await http.request('GET', `/s/${id}/content`, { headers });
    expect(whole.status).toBe(200);
    expect(whole.text).toBe('the secret bytes');
    const range = await http.request('GET', `/s/${id}/content`, { headers: { ...headers, Range: 'bytes=4-9' } });
    expect(range.status).toBe(206);
    expect(range.text).toBe('secret');
  });

  it('the grant counts for our own origin and top-level navigations, not for another origin\'s subresource', async () => {
    const { http, token } = await setUp();
    const folder = await http.request('POST', '/api/folder', { token, json: { name: 'Locked' } });
    const inner = await http.upload(token, 'inner bytes', { folderId: folder.body.id, filename: 'inner.png', type: 'image/png' });
    const share = await http.request('POST', '/api/share', {
      token,
      json: { type: 'folder', id: folder.body.id, password: PASSWORD },
    });
    const id = share.body.id as string;
    const { cookie } = await unlock(http, id, PASSWORD);
    const fetchMeta = (site: string, mode: string, dest: string) => ({
      'Sec-Fetch-Site': site,
      'Sec-Fetch-Mode': mode,
      'Sec-Fetch-Dest': dest,
    });
    const sibling = 'http://127.0.0.1:1';
    const routes = [`/s/${id}/files/${inner.body.id}`, `/s/${id}/archive`, `/s/${id}/folders/${folder.body.id}`];
    const honoured: Array<[string, Record<string, string>]> = [
      ['a same-origin image', fetchMeta('same-origin', 'no-cors', 'image')],
      ['a same-origin fetch', { ...fetchMeta('same-origin', 'cors', 'empty'), Origin: http.url }],
      ['an address typed or bookmarked', fetchMeta('none', 'navigate', 'document')],
      ['a same-site top-level navigation (a link on a sibling subdomain)', fetchMeta('same-site', 'navigate', 'document')],
      ['a client that sends no fetch metadata', {}],
    ];
    const refused: Array<[string, Record<string, string>]> = [
      ['a same-site image (another port, a sibling subdomain)', fetchMeta('same-site', 'no-cors', 'image')],
      ['a same-site video', fetchMeta('same-site', 'no-cors', 'video')],
      ['a same-site fetch', { ...fetchMeta('same-site', 'cors', 'empty'), Origin: sibling }],
      ['a same-site frame', fetchMeta('same-site', 'navigate', 'iframe')],
      ['a cross-site image', fetchMeta('cross-site', 'no-cors', 'image')],
      ['a cross-site script', fetchMeta('cross-site', 'no-cors', 'script')],
      ['a foreign Origin without fetch metadata', { Origin: sibling }],
    ];
    // Off the wire: fetch() writes a Sec-Fetch-Mode of its own over the one a test gives it.
    const get = (path: string, headers: Record<string, string>) =>
      rawRequest(
        http.url,
        [`GET ${path} HTTP/1.1`, `Host: ${new URL(http.url).host}`, `Cookie: ${cookie}`, 'Connection: close']
          .concat(Object.entries(headers).map(([name, value]) => `${name}: ${value}`), '', '')
          .join('\r\n'),
      );
    for (const [what, headers] of honoured) {
      for (const path of routes) expect((await get(path, headers)).status, `${what}: ${path}`).toBe(200);
    }
    for (const [what, headers] of refused) {
      for (const path of routes) {
        const res = await get(path, headers);
        expect(res.status, `${what}: ${path}`).toBe(401);
        expect(res.body, `${what}: ${path}`).toContain('"error":"share_password_required"');
      }
    }
    // The page itself: a top-level navigation from a sibling opens it; the same request as a frame finds it locked.
    const page = async (headers: Record<string, string>) => (await get(`/s/${id}`, headers)).body;
    expect(await page(fetchMeta('same-site', 'navigate', 'document'))).toContain('"state":"open"');
    expect(await page(fetchMeta('same-site', 'navigate', 'iframe'))).toContain('"state":"locked"');
  });

  it('a grant reads in parallel without hashing or meeting the guess throttle', async () => {
    const calls = { verify: 0 };
    const { http, id } = await setUp({ wrapPorts: countingVerify(calls) });
    const before = calls.verify;
    const { cookie } = await unlock(http, id, PASSWORD);
    expect(calls.verify).toBe(before + 1);
    const reads = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        http.request('GET', `/s/${id}/content?preview=1`, { headers: { Cookie: cookie, Range: `bytes=${i % 8}-9` } }),
      ),
    );
    expect(reads.map((r) => r.status)).toEqual(Array(40).fill(206));
    expect(calls.verify).toBe(before + 1);
  });

  it('a grant opens its own share only, and not once tampered with, expired, re-passworded or deleted', async () => {
    const { http, token, id, shared } = await setUp();
    const other = await shared();
    const { cookie } = await unlock(http, id, PASSWORD);
    const read = (shareId: string, grant = cookie) =>
      http.request('GET', `/s/${shareId}/content`, { headers: { Cookie: grant } });

    expect((await read(other)).status).toBe(401);
    const [stamp, mac] = cookie.split('=')[1]!.split('.');
    const later = (parseInt(stamp!, 36) + 60_000).toString(36);
    expect((await read(id, `coffer_share=${later}.${mac}`)).status).toBe(401);
    expect((await read(id, `coffer_share=${stamp}.${mac!.slice(1)}A`)).status).toBe(401);

    http.clock.advance(2 * 60 * 60 * 1000);
    expect((await read(id)).status).toBe(401);
    http.clock.advance(-60_000);
    expect((await read(id)).status).toBe(200);

    // The same password set again is a new hash: every grant of the old one ends.
    expect((await http.request('PATCH', `/api/share/${id}`, { token, json: { password: PASSWORD } })).status).toBe(200);
    expect((await read(id)).status).toBe(401);
    const fresh = (await unlock(http, id, PASSWORD)).cookie;
    expect((await read(id, fresh)).status).toBe(200);
    expect((await http.request('DELETE', `/api/share/${id}`, { token })).status).toBe(204);
    expect((await read(id, fresh)).status).toBe(404);
  });

  it('guessing is throttled: the answer says when to retry', async () => {
    const { http, id } = await setUp();
    let res;
    for (let i = 0; i < 30; i++) {
      res = (await unlock(http, id, `wrong ${i}`)).res;
      if (res.status === 429) break;
    }
    expect(res!.status).toBe(429);
    expect(Number(res!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res!.body.error).toBe('rate_limited');
  });

  it('the cookie is Secure when the service is reached over HTTPS; a bad body is a 400 that counts nothing', async () => {
    const { http, id } = await setUp({ publicUrl: 'https://files.example' });
    const { res } = await unlock(http, id, PASSWORD);
    expect(res.headers.get('set-cookie')).toContain('; Secure');
    for (const json of [{}, { password: 1 }, { password: PASSWORD, extra: true }]) {
      expect((await http.request('POST', `/s/${id}/unlock`, { json })).status).toBe(400);
    }
    const text = await http.request('POST', `/s/${id}/unlock`, {
      body: `password=${PASSWORD}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(text.status).toBe(400);
  });
});
