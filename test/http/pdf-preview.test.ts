import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHttp, type Reply, type HttpTest } from '../support/http.js';
import { onePagePdf } from '../support/pdf.js';
import { shareCounts } from '../support/share-counts.js';

const PDF = onePagePdf('Quarterly figures');
const FRAMED_PDF_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

let t: HttpTest;
let token: string;
beforeAll(async () => {
  t = await makeHttp();
  token = await t.userToken('alice');
});
afterAll(() => t.close());

async function upload(content: string | Uint8Array, filename: string, type: string, folderId?: string) {
  const file = await t.upload(token, content, { filename, type, folderId });
  expect(file.status).toBe(201);
  return file.body.id as string;
}

async function share(type: 'file' | 'folder', id: string, options = {}): Promise<string> {
  const res = await t.request('POST', '/api/share', { token, json: { type, id, ...options } });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

/** What every download carries today, PDF or not: a sandbox, no framing rule of its own. */
function expectSandboxed(res: Reply, disposition: 'inline' | 'attachment') {
  expect(res.headers.get('content-security-policy')).toBe('sandbox');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('x-frame-options')).toBeNull();
  expect(res.headers.get('content-disposition')).toMatch(new RegExp(`^${disposition};`));
}

function expectFramedPdf(res: Reply) {
  expect(res.headers.get('content-type')).toBe('application/pdf');
  expect(res.headers.get('content-security-policy')).toBe(FRAMED_PDF_CSP);
  expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('content-disposition')).toMatch(/^inline;/);
}

describe('the PDF preview of the share page', () => {
  it('serves a stored application/pdf previewed by the page for its frame: closed policy, no sandbox, same origin only', async () => {
    const id = await share('file', await upload(PDF, 'figures.pdf', 'application/pdf'));
    const whole = await t.request('GET', `/s/${id}/content?preview=1`);
    expect(whole.status).toBe(200);
    expectFramedPdf(whole);
    expect(whole.bytes.equals(PDF)).toBe(true);

    // The viewer reads by range and revalidates: every answer of the preview carries the same policy.
    const range = await t.request('GET', `/s/${id}/content?preview=1`, { headers: { Range: 'bytes=0-7' } });
    expect(range.status).toBe(206);
    expectFramedPdf(range);
    const etag = whole.headers.get('etag')!;
    const again = await t.request('GET', `/s/${id}/content?preview=1`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('content-security-policy')).toBe(FRAMED_PDF_CSP);
  });

  it('a PDF inside a shared folder gets the same preview answer through the per-file route', async () => {
    const folder = await t.request('POST', '/api/folder', { token, json: { name: 'Reports', parentId: null } });
    const fileId = await upload(PDF, 'inner.pdf', 'application/pdf', folder.body.id as string);
    const id = await share('folder', folder.body.id as string);
    expectFramedPdf(await t.request('GET', `/s/${id}/files/${fileId}?preview=1`));
    expectSandboxed(await t.request('GET', `/s/${id}/files/${fileId}`), 'inline');
  });

  it('the same PDF fetched as a download, on any route, keeps the sandbox', async () => {
    const fileId = await upload(PDF, 'figures.pdf', 'application/pdf');
    const id = await share('file', fileId);
    expectSandboxed(await t.request('GET', `/s/${id}/content`), 'inline');
    expectSandboxed(await t.request('GET', `/api/share/${id}/content`), 'inline');
    expectSandboxed(await t.request('GET', `/api/file/${fileId}/content`, { token }), 'inline');
  });

  it('only a stored type of exactly application/pdf with a passive name is framed; anything else keeps the sandbox', async () => {
    const cases: [string | Uint8Array, string, string, 'inline' | 'attachment'][] = [
      ['<script>alert(document.domain)</script>', 'figures.pdf', 'text/html', 'attachment'],
      [PDF, 'figures.html', 'application/pdf', 'attachment'],
      [PDF, 'figures.pdf', 'application/x-pdf', 'attachment'],
      [PDF, 'figures.pdf', 'application/octet-stream', 'attachment'],
      ['plain words', 'notes.pdf', 'text/plain', 'inline'],
      [new Uint8Array([0x89, 0x50, 0x4e, 0x47]), 'picture.png', 'image/png', 'inline'],
    ];
    for (const [bytes, name, type, disposition] of cases) {
      const id = await share('file', await upload(bytes, name, type));
      const res = await t.request('GET', `/s/${id}/content?preview=1`);
      expect(res.status, `${name} as ${type}`).toBe(200);
      expectSandboxed(res, disposition);
    }
  });

  it('counts as every preview does: nothing beyond the visit, unless the share has a download maximum', async () => {
    const free = await share('file', await upload(PDF, 'free.pdf', 'application/pdf'));
    await t.request('GET', `/s/${free}`);
    await t.request('GET', `/s/${free}/content?preview=1`);
    await t.request('GET', `/s/${free}/content?preview=1`, { headers: { Range: 'bytes=100-199' } });
    expect(await shareCounts(t.request, token, free)).toEqual({ views: 1, downloads: 0 });

    const limited = await share('file', await upload(PDF, 'limited.pdf', 'application/pdf'), { maxDownloads: 1 });
    await t.request('GET', `/s/${limited}`);
    expect((await t.request('GET', `/s/${limited}/content?preview=1`)).status).toBe(200);
    expect(await shareCounts(t.request, token, limited)).toEqual({ views: 1, downloads: 1 });
  });
});
