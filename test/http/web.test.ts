import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';
import { rawRequest } from '../support/raw-http.js';
import { tempDir } from '../support/temp.js';

let t: HttpTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const SHELL = '<!doctype html><title>x</title><script type="module" src="/assets/app-AbCd3fGh.js"></script>';

/** A small stand-in for web/dist, with files that must never be served next to the ones that must. */
function fakeDist(): string {
  const dir = tempDir('web');
  mkdirSync(join(dir, 'assets', 'sub'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), SHELL);
  writeFileSync(join(dir, 'secret.txt'), 'outside the assets');
  writeFileSync(join(dir, '.sources-hash'), 'stamp');
  writeFileSync(join(dir, 'assets', 'app-AbCd3fGh.js'), `console.log(${JSON.stringify('x'.repeat(2000))});`);
  writeFileSync(join(dir, 'assets', 'plain.js'), 'export {};');
  writeFileSync(join(dir, 'assets', 'notes.txt'), 'not a kind the front end emits');
  writeFileSync(join(dir, 'assets', '.hidden.js'), 'export {};');
  writeFileSync(join(dir, 'assets', 'sub', 'deep-AbCd3fGh.js'), 'export {};');
  return dir;
}

describe('the web front end over HTTP', () => {
  it('serves /s/{id} from the shell, with its state as status, the strict CSP, never cached', async () => {
    t = await makeHttp({ webDir: fakeDist() });
    for (const id of ['abc', 'AAAAAAAAAAAAAAAAAAAAAA', '%3Cscript%3E']) {
      const res = await t.request('GET', `/s/${id}`);
      expect(res.status).toBe(404);
      expect(res.text).toContain('<title>Share not found · Coffer</title>');
      expect(res.text).toContain('<script type="module" src="/assets/app-AbCd3fGh.js"></script>');
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const csp = res.headers.get('content-security-policy') ?? '';
      for (const directive of [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "connect-src 'self'",
        "worker-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "form-action 'none'",
        "require-trusted-types-for 'script'",
        // One policy, for the PDF worker's address only (web/src/common/pdf/pdf-engine.ts); none for HTML.
        'trusted-types coffer-pdf-worker coffer-download-worker',
      ]) {
        expect(csp.split('; ')).toContain(directive);
      }
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:|data:|blob:|allow-duplicates/);
      // No frame (PDFs are drawn by pdf.js), no plugin element; workers only from our own files.
      expect(csp).not.toMatch(/object-src|child-src|frame-src/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('serves hashed assets as immutable, with a strong ETag and 304 on revalidation', async () => {
    t = await makeHttp({ webDir: fakeDist() });
    const res = await t.request('GET', '/assets/app-AbCd3fGh.js', { headers: { 'accept-encoding': 'identity' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = res.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await t.request('GET', '/assets/app-AbCd3fGh.js', {
      headers: { 'accept-encoding': 'identity', 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);

    const plain = await t.request('GET', '/assets/plain.js');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('cache-control')).toBe('no-cache');
  });

  it('compresses text when the client accepts it, with an ETag of its own and Vary', async () => {
    t = await makeHttp({ webDir: fakeDist() });
    const identity = await t.request('GET', '/assets/app-AbCd3fGh.js', { headers: { 'accept-encoding': 'identity' } });
    for (const encoding of ['gzip', 'br']) {
      const res = await t.request('GET', '/assets/app-AbCd3fGh.js', { headers: { 'accept-encoding': encoding } });
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      expect(Number(res.headers.get('content-length'))).toBeLessThan(identity.bytes.length / 10);
      expect(res.text).toBe(identity.text);
      expect(res.headers.get('etag')).not.toBe(identity.headers.get('etag'));
    }
    const refused = await t.request('GET', '/assets/app-AbCd3fGh.js', { headers: { 'accept-encoding': 'br;q=0' } });
    expect(refused.headers.get('content-encoding')).toBeNull();
  });

  it('answers 404 for anything not a built asset: other kinds, dotfiles, subfolders and paths that climb', async () => {
    t = await makeHttp({ webDir: fakeDist() });
    const paths = [
      '/assets/notes.txt',
      '/assets/.hidden.js',
      '/assets/sub/deep-AbCd3fGh.js',
      '/assets/sub%2fdeep-AbCd3fGh.js',
      '/assets/..%2fsecret.txt',
      '/assets/..%2findex.html',
      '/assets/%2e%2e/secret.txt',
      '/assets/../secret.txt',
      '/assets/..%5csecret.txt',
      '/assets/',
      '/index.html',
      '/secret.txt',
      '/.sources-hash',
      '/assets/.sources-hash',
    ];
    for (const path of paths) {
      const raw = await rawRequest(t.url, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect({ path, status: raw.status }).toEqual({ path, status: 404 });
      expect(raw.body).not.toContain('outside the assets');
    }
  });

  it('without a build answers 503 for pages and 404 for assets; with no web directory there are no pages', async () => {
    t = await makeHttp({ webDir: tempDir('empty-web') });
    expect((await t.request('GET', '/s/abc')).body.error).toBe('unavailable');
    expect((await t.request('GET', '/assets/app-AbCd3fGh.js')).status).toBe(404);
    await t.close();
    t = await makeHttp({ webDir: null });
    expect((await t.request('GET', '/s/abc')).status).toBe(404);
  });
});
