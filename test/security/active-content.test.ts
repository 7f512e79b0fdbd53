import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest, type Reply } from '../support/http.js';
import { rawRequest } from '../support/raw-http.js';

let t: HttpTest;
let token: string;
beforeEach(async () => {
  t = await makeHttp({ maxUploadBytes: 1024 * 1024 });
  token = await t.userToken('alice');
});
afterEach(() => t.close());

/** Claimed as active by its type, by its name, or both; each must be an attachment in a sandbox. */
const ACTIVE: Array<[mime: string, name: string]> = [
  ['text/html', 'page.txt'],
  ['TEXT/HTML; charset=utf-8', 'page'],
  ['application/xhtml+xml', 'page.bin'],
  ['image/svg+xml', 'logo.png'],
  ['text/xml', 'feed'],
  ['application/xml', 'data'],
  ['application/rss+xml', 'feed'],
  ['application/atom+xml', 'feed'],
  ['text/javascript', 'app'],
  ['application/javascript', 'app'],
  ['application/ecmascript', 'app'],
  ['text/plain', 'page.html'],
  ['text/plain', 'page.HTM'],
  ['image/png', 'logo.svg'],
  ['image/png', 'logo.SVGZ'],
  ['application/octet-stream', 'page.xhtml'],
  ['application/pdf', 'archive.mht'],
  ['text/plain', 'style.xsl'],
  ['text/plain', 'module.mjs'],
  ['text/plain', 'script.js'],
  ['image/jpeg', 'page.shtml'],
];

const PASSIVE: Array<[mime: string, name: string, disposition: string]> = [
  ['image/png', 'photo.png', 'inline'],
  ['text/plain', 'notes.txt', 'inline'],
  ['application/pdf', 'paper.pdf', 'attachment'],
  ['application/zip', 'bundle.zip', 'attachment'],
  ['text/css', 'style.css', 'attachment'],
];

function expectSandboxed(res: Reply, disposition: string, what: string): void {
  expect(res.headers.get('content-disposition'), what).toMatch(new RegExp(`^${disposition};`));
  expect(res.headers.get('content-security-policy'), what).toBe('sandbox');
  expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
}

async function upload(mime: string, name: string): Promise<string> {
  const res = await t.upload(token, '<svg onload="alert(document.cookie)"><script>alert(1)</script></svg>', {
    type: mime,
    filename: name,
  });
  expect(res.status, `${mime} ${name}`).toBe(201);
  return res.body.id;
}

describe('active content', () => {
  it('is always an attachment in a sandbox, claimed by type or by name, on every way of downloading it', async () => {
    for (const [mime, name] of ACTIVE) {
      const what = `${mime} / ${name}`;
      const id = await upload(mime, name);
      const share = await t.request('POST', '/api/share', { token, json: { type: 'file', id } });
      const full = await t.request('GET', `/api/file/${id}/content`, { token });
      expectSandboxed(full, 'attachment', what);
      const etag = full.headers.get('etag')!;
      const replies = [
        await t.request('HEAD', `/api/file/${id}/content`, { token }),
        await t.request('GET', `/api/file/${id}/content`, { token, headers: { range: 'bytes=0-4' } }),
        await t.request('GET', `/api/share/${share.body.id}/content`),
        await t.request('GET', `/api/file/${id}/content`, { headers: { 'x-share-id': share.body.id } }),
      ];
      for (const res of replies) expectSandboxed(res, 'attachment', what);
      expect(replies[1]!.status).toBe(206);
      const cached = await t.request('GET', `/api/file/${id}/content`, { token, headers: { 'if-none-match': etag } });
      expect(cached.status).toBe(304);
      expect(cached.headers.get('content-security-policy')).toBe('sandbox');
      expect(cached.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('stays an attachment when it is renamed to look passive, or renamed to look active', async () => {
    const html = await upload('text/html', 'page.html');
    await t.request('PATCH', `/api/file/${html}`, { token, json: { name: 'harmless.png' } });
    expectSandboxed(await t.request('GET', `/api/file/${html}/content`, { token }), 'attachment', 'renamed html');
    const png = await upload('image/png', 'photo.png');
    await t.request('PATCH', `/api/file/${png}`, { token, json: { name: 'photo.svg' } });
    expectSandboxed(await t.request('GET', `/api/file/${png}/content`, { token }), 'attachment', 'renamed png');
  });

  it('leaves only a short list of passive types inline, still sandboxed', async () => {
    for (const [mime, name, disposition] of PASSIVE) {
      const id = await upload(mime, name);
      expectSandboxed(await t.request('GET', `/api/file/${id}/content`, { token }), disposition, name);
    }
  });

  it('serves a paste holding HTML as sandboxed plain text', async () => {
    const paste = await t.request('POST', '/api/paste', {
      token,
      json: { name: 'page.html', type: 'html', content: '<script>alert(1)</script>' },
    });
    const share = await t.request('POST', '/api/share', { token, json: { type: 'paste', id: paste.body.id } });
    const res = await t.request('GET', `/api/share/${share.body.id}/content`);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe('sandbox');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('X-Content-Type-Options: nosniff', () => {
  it('is on every response: JSON, errors of every status, 404, 304, 206, 416, HEAD, empty 204', async () => {
    const id = await upload('text/plain', 'a.txt');
    const etag = (await t.request('GET', `/api/file/${id}/content`, { token })).headers.get('etag')!;
    const victim = await t.request('POST', '/api/folder', { token, json: { name: 'to delete' } });
    const replies: Array<[string, Reply]> = [
      ['200 JSON', await t.request('GET', '/health')],
      ['201', await t.request('POST', '/api/folder', { token, json: { name: 'f' } })],
      ['204', await t.request('DELETE', `/api/folder/${victim.body.id}`, { token })],
      ['400', await t.request('POST', '/api/folder', { token, json: { name: 5 } })],
      ['400 malformed JSON', await t.request('POST', '/api/folder', { token, body: '{', headers: { 'content-type': 'application/json' } })],
      ['401', await t.request('GET', '/api/usage/stats')],
      ['403', await t.request('GET', '/api/admin/users', { token })],
      ['404 route', await t.request('GET', '/nowhere')],
      ['404 item', await t.request('GET', '/api/file/missing', { token })],
      ['405', await t.request('PUT', '/health')],
      ['409', await t.request('POST', '/api/share', { token, json: { type: 'file', id } }).then(() =>
        t.request('POST', '/api/share', { token, json: { type: 'file', id } }),
      )],
      ['413', await t.request('POST', '/api/auth/login', { json: { username: 'a', password: 'p'.repeat(20_000) } })],
      ['200 content', await t.request('GET', `/api/file/${id}/content`, { token })],
      ['206', await t.request('GET', `/api/file/${id}/content`, { token, headers: { range: 'bytes=0-0' } })],
      ['304', await t.request('GET', `/api/file/${id}/content`, { token, headers: { 'if-none-match': etag } })],
      ['416', await t.request('GET', `/api/file/${id}/content`, { token, headers: { range: 'bytes=99-100' } })],
      ['HEAD', await t.request('HEAD', `/api/file/${id}/content`, { token })],
    ];
    const statuses = new Set<number>();
    for (const [what, res] of replies) {
      statuses.add(res.status);
      expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
    }
    expect([...statuses].sort()).toEqual([200, 201, 204, 206, 304, 400, 401, 403, 404, 405, 409, 413, 416]);
  });

  it('is on a 500 and on answers Node gives before the app runs', async () => {
    t.core.getUsage.execute = async () => {
      throw new Error('boom');
    };
    const failed = await t.request('GET', '/api/usage/stats', { token });
    expect(failed.status).toBe(500);
    expect(failed.headers.get('x-content-type-options')).toBe('nosniff');
    const malformed = await rawRequest(t.url, 'GET / HTTP/9\r\n\r\n');
    expect(malformed.status).toBe(400);
    expect(malformed.headers).toContain('X-Content-Type-Options: nosniff');
  });
});
