import contentDisposition from 'content-disposition';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoredFile } from '../../src/domain/index.js';
import { bytes } from '../support/core.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { encodedFilename, multipartBody, MULTIPART_TYPE } from '../support/multipart.js';
import { rawRequest, type RawReply } from '../support/raw-http.js';

let t: HttpTest;
let token: string;
let userId: string;
beforeEach(async () => {
  t = await makeHttp();
  ({ token, userId } = await t.user('alice'));
});
afterEach(() => t.close());

/** The download as it crosses the wire: header lines exactly as written, before any client parses them. */
function download(path: string, headers: Record<string, string> = { Authorization: `token ${token}` }) {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return rawRequest(t.url, `GET ${path} HTTP/1.1\r\nHost: x\r\n${lines.join('')}Connection: close\r\n\r\n`);
}

const INJECTED = /^(set-cookie|location|refresh|x-injected|content-security-policy-report-only|link):/i;

function expectNoInjection(reply: RawReply): void {
  for (const line of reply.headers) expect(line).not.toMatch(INJECTED);
  expect(reply.headers.filter((l) => /^content-disposition:/i.test(l)).length).toBeLessThanOrEqual(1);
  expect(reply.headers.filter((l) => /^content-type:/i.test(l))).toHaveLength(1);
  expect(reply.headers).toContain('X-Content-Type-Options: nosniff');
}

/** What the client's browser would save the download as: filename* when present, else filename. */
function savedName(reply: RawReply): string {
  const line = reply.headers.find((l) => /^content-disposition:/i.test(l))!;
  return contentDisposition.parse(Buffer.from(line.slice(line.indexOf(':') + 1).trim(), 'latin1').toString('utf8'))
    .parameters['filename']!;
}

/** A record written straight into the repository, as an older version or a hand edit of the database might have. */
async function storedRaw(name: string, mime = 'text/plain'): Promise<StoredFile> {
  const blob = await t.ports.blobs.write(bytes('payload'));
  const file: StoredFile = {
    id: `raw-${Math.random().toString(36).slice(2)}`,
    ownerId: userId,
    folderId: null,
    name,
    mime,
    size: blob.size,
    blobKey: blob.key,
    uploaderTokenId: null,
    charset: null,
    createdAt: t.clock.now(),
    updatedAt: t.clock.now(),
  };
  await t.ports.files.insert(file);
  return file;
}

describe('file names in download headers', () => {
  it('cannot add header lines through CR/LF in an uploaded name', async () => {
    const name = 'report\r\nSet-Cookie: session=stolen\r\nX-Injected: 1.txt';
    const res = await t.request('POST', '/api/file', {
      token,
      body: multipartBody([{ disposition: encodedFilename(name), type: 'text/plain', content: 'x' }]),
      headers: { 'content-type': MULTIPART_TYPE },
    });
    expect(res.status).toBe(201);
    expect(res.body.name).not.toMatch(/[\r\n]/);
    const reply = await download(`/api/file/${res.body.id}/content`);
    expect(reply.status).toBe(200);
    expectNoInjection(reply);
    expect(savedName(reply)).toBe(res.body.name);
  });

  it('cannot break out of the quoted filename or filename* parameter', async () => {
    for (const name of ['a"; filename="evil.html', "b'; filename*=UTF-8''evil.html", 'c\\"; x=1', 'd%0D%0Ae.txt']) {
      const res = await t.upload(token, 'x', { name });
      expect(res.status, name).toBe(201);
      const reply = await download(`/api/file/${res.body.id}/content`);
      expectNoInjection(reply);
      expect(savedName(reply), name).toBe(res.body.name);
    }
  });

  it('encodes names outside latin1 in filename* and falls back to a plain filename', async () => {
    const res = await t.upload(token, 'x', { name: 'отчёт 📄 résumé.txt' });
    const reply = await download(`/api/file/${res.body.id}/content`);
    expectNoInjection(reply);
    const line = reply.headers.find((l) => /^content-disposition:/i.test(l))!;
    expect(line).toMatch(/filename\*=UTF-8''/);
    expect(line).toMatch(/^[\x20-\x7e]*$/);
    expect(savedName(reply)).toBe('отчёт 📄 résumé.txt');
  });

  it('stays safe for stored names that never went through cleaning', async () => {
    for (const name of ['old\r\nSet-Cookie: a=b', 'nul\u0000byte', 'tab\tand\u001bescape', '\u202Eexe.txt']) {
      const file = await storedRaw(name);
      for (const path of [`/api/file/${file.id}/content`]) {
        const reply = await download(path);
        expectNoInjection(reply);
        expect(reply.status, JSON.stringify(name)).toBe(200);
        expect(reply.body).toBe('payload');
      }
    }
  });

  it('cannot inject through a stored content type either; the download fails closed', async () => {
    const file = await storedRaw('a.txt', 'text/plain\r\nX-Injected: 1');
    const reply = await download(`/api/file/${file.id}/content`);
    expectNoInjection(reply);
    expect(reply.body).not.toContain('payload');
  });

  it('behaves the same through a public share link', async () => {
    const file = await storedRaw('shared\r\nLocation: https://evil.example/');
    const share = await t.request('POST', '/api/share', { token, json: { type: 'file', id: file.id } });
    expect(share.status).toBe(201);
    const reply = await download(`/api/share/${share.body.id}/content`, {});
    expect(reply.status).toBe(200);
    expectNoInjection(reply);
  });
});
