import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';

let t: HttpTest;
let alice: string;
afterEach(() => t.close());
beforeEach(async () => {
  t = await makeHttp();
  alice = await t.userToken('alice');
});

const DATA = '0123456789';

async function uploaded(content = DATA, filename = 'digits.txt', type = 'text/plain'): Promise<string> {
  const res = await t.upload(alice, content, { filename, type });
  expect(res.status).toBe(201);
  return res.body.id;
}

describe('GET /api/file/{id}/content', () => {
  it('streams the bytes with validators, length, caching and safety headers', async () => {
    const id = await uploaded();
    const res = await t.request('GET', `/api/file/${id}/content`, { token: alice });
    expect(res.status).toBe(200);
    expect(res.text).toBe(DATA);
    const h = res.headers;
    // Its bytes are UTF-8, so the text type names its charset.
    expect(h.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(h.get('content-length')).toBe('10');
    expect(h.get('etag')).toMatch(/^"[^"]+"$/);
    expect(new Date(h.get('last-modified')!).toString()).not.toBe('Invalid Date');
    expect(h.get('accept-ranges')).toBe('bytes');
    expect(h.get('cache-control')).toBe('private, no-cache');
    expect(h.get('content-security-policy')).toBe('sandbox');
    expect(h.get('x-content-type-options')).toBe('nosniff');
    expect(h.get('content-disposition')).toBe('inline; filename="digits.txt"');
  });

  it('answers HEAD with the headers and no body', async () => {
    const id = await uploaded();
    const res = await t.request('HEAD', `/api/file/${id}/content`, { token: alice });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('10');
    expect(res.bytes.length).toBe(0);
  });

  it('answers a single Range with 206 and Content-Range', async () => {
    const id = await uploaded();
    const res = await t.request('GET', `/api/file/${id}/content`, { token: alice, headers: { range: 'bytes=2-5' } });
    expect(res.status).toBe(206);
    expect(res.text).toBe('2345');
    expect(res.headers.get('content-range')).toBe('bytes 2-5/10');
    expect(res.headers.get('content-length')).toBe('4');
    const suffix = await t.request('GET', `/api/file/${id}/content`, { token: alice, headers: { range: 'bytes=-3' } });
    expect(suffix.status).toBe(206);
    expect(suffix.text).toBe('789');
  });

  it('answers an unsatisfiable Range with 416 and bytes */size', async () => {
    const id = await uploaded();
    const res = await t.request('GET', `/api/file/${id}/content`, { token: alice, headers: { range: 'bytes=50-60' } });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe('bytes */10');
    expect(res.body).toEqual({ error: 'bad_request', message: 'Range not satisfiable' });
  });

  it('answers several ranges, a malformed Range and a stale If-Range with the whole file', async () => {
    const id = await uploaded();
    const cases: Array<Record<string, string>> = [
      { range: 'bytes=0-1,5-6' },
      { range: 'pages=1-2' },
      { range: 'bytes=2-3', 'if-range': '"some-other-etag"' },
    ];
    for (const headers of cases) {
      const res = await t.request('GET', `/api/file/${id}/content`, { token: alice, headers });
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(res.text).toBe(DATA);
    }
  });

  it('answers If-None-Match with the ETag by 304 and no body', async () => {
    const id = await uploaded();
    const first = await t.request('GET', `/api/file/${id}/content`, { token: alice });
    const etag = first.headers.get('etag')!;
    const res = await t.request('GET', `/api/file/${id}/content`, { token: alice, headers: { 'if-none-match': etag } });
    expect(res.status).toBe(304);
    expect(res.bytes.length).toBe(0);
    expect(res.headers.get('etag')).toBe(etag);
    const other = await t.request('GET', `/api/file/${id}/content`, {
      token: alice,
      headers: { 'if-none-match': '"nope"' },
    });
    expect(other.status).toBe(200);
    const ranged = await t.request('GET', `/api/file/${id}/content`, {
      token: alice,
      headers: { range: 'bytes=1-2', 'if-range': etag },
    });
    expect(ranged.status).toBe(206);
  });

  it('encodes a non-ASCII name as filename* and escapes quotes', async () => {
    const accented = await uploaded('x', 'résumé ✓.txt');
    const res = await t.request('GET', `/api/file/${accented}/content`, { token: alice });
    expect(res.headers.get('content-disposition')).toBe(
      `inline; filename="r?sum? ?.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%E2%9C%93.txt`,
    );
    // FormData writes a quote in a filename as %22, so the quote comes in through the name field.
    const quoted = (await t.upload(alice, 'x', { filename: 'a.txt', name: 'say "hi".txt' })).body.id;
    const q = await t.request('GET', `/api/file/${quoted}/content`, { token: alice });
    expect(q.headers.get('content-disposition')).toBe('inline; filename="say \\"hi\\".txt"');
  });

  it('serves uploaded HTML as a sandboxed attachment, never inline', async () => {
    const html = '<script>alert(document.cookie)</script>';
    for (const [filename, type] of [
      ['page.html', 'text/html'],
      ['page.html', 'text/plain'],
      ['image.svg', 'image/svg+xml'],
    ] as const) {
      const id = await uploaded(html, filename, type);
      const res = await t.request('GET', `/api/file/${id}/content`, { token: alice });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
      expect(res.headers.get('content-security-policy')).toBe('sandbox');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      // The type as stored; text whose bytes are UTF-8 names its charset (the SVG is an image type, so it has none).
      expect(res.headers.get('content-type')?.split(';')[0]).toBe(type);
    }
  });

  it('serves unknown types as attachments and an empty file with length 0', async () => {
    const bin = await uploaded('\u0000\u0001', 'data.bin', 'application/octet-stream');
    const res = await t.request('GET', `/api/file/${bin}/content`, { token: alice });
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="data.bin"');
    const empty = await uploaded('', 'empty.txt');
    const e = await t.request('GET', `/api/file/${empty}/content`, { token: alice });
    expect(e.status).toBe(200);
    expect(e.headers.get('content-length')).toBe('0');
    expect(e.bytes.length).toBe(0);
  });

  it('streams a large file intact', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = i % 251;
    const res = await t.upload(alice, big, { filename: 'big.bin', type: 'application/octet-stream' });
    expect(res.status).toBe(201);
    const got = await t.request('GET', `/api/file/${res.body.id}/content`, { token: alice });
    expect(got.bytes.equals(big)).toBe(true);
  });

  it('survives a download whose bytes fail after the response started', async () => {
    const id = await uploaded();
    const original = t.core.openFileContent.execute.bind(t.core.openFileContent);
    t.core.openFileContent.execute = async (input) => ({
      ...(await original(input)),
      open: async () =>
        (async function* () {
          yield new Uint8Array([48, 49]);
          throw new Error('disk went away');
        })(),
    });
    await expect(t.request('GET', `/api/file/${id}/content`, { token: alice })).rejects.toThrow();
    expect((await t.request('GET', '/health')).status).toBe(200);
  });
});
