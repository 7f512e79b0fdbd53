import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHttp, type Reply, type HttpTest } from '../support/http.js';
import { onePagePdf } from '../support/pdf.js';
import { shareCounts } from '../support/share-counts.js';

const PDF = onePagePdf('Quarterly figures', { openScript: "app.alert('x'); app.response('y');" });

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

/** What every download carries, PDF included: an attachment, in a sandbox, never framed by a rule of its own. */
function expectAttachment(res: Reply, what: string) {
  expect(res.headers.get('content-security-policy'), what).toBe('sandbox');
  expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(res.headers.get('x-frame-options'), what).toBeNull();
  expect(res.headers.get('content-disposition'), what).toMatch(/^attachment;/);
}

describe('PDF bytes: an attachment on every route, preview or not', () => {
  it('a shared PDF, through the page\'s routes with and without preview=1, the share download and X-Share-Id', async () => {
    const fileId = await upload(PDF, 'figures.pdf', 'application/pdf');
    const id = await share('file', fileId);
    for (const path of [`/s/${id}/content`, `/s/${id}/content?preview=1`, `/api/share/${id}/content`]) {
      const res = await t.request('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe('application/pdf');
      expect(res.bytes.equals(PDF), path).toBe(true);
      expectAttachment(res, path);
    }
    expectAttachment(await t.request('GET', `/api/file/${fileId}/content`, { headers: { 'x-share-id': id } }), 'X-Share-Id');
  });

  it('pdf.js reads by range and revalidates: every answer of the preview stays an attachment in the sandbox', async () => {
    const id = await share('file', await upload(PDF, 'ranged.pdf', 'application/pdf'));
    const range = await t.request('GET', `/s/${id}/content?preview=1`, { headers: { Range: 'bytes=0-7' } });
    expect(range.status).toBe(206);
    expect(range.text).toBe('%PDF-1.4');
    expectAttachment(range, 'range');
    const etag = range.headers.get('etag')!;
    const again = await t.request('GET', `/s/${id}/content?preview=1`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('content-security-policy')).toBe('sandbox');
  });

  it('a PDF inside a shared folder, through the per-file route with and without preview=1', async () => {
    const folder = await t.request('POST', '/api/folder', { token, json: { name: 'Reports', parentId: null } });
    const fileId = await upload(PDF, 'inner.pdf', 'application/pdf', folder.body.id as string);
    const id = await share('folder', folder.body.id as string);
    for (const path of [`/s/${id}/files/${fileId}`, `/s/${id}/files/${fileId}?preview=1`]) {
      const res = await t.request('GET', path);
      expect(res.status, path).toBe(200);
      expectAttachment(res, path);
    }
  });

  it('the owner\'s download too', async () => {
    const fileId = await upload(PDF, 'mine.pdf', 'application/pdf');
    expectAttachment(await t.request('GET', `/api/file/${fileId}/content`, { token }), 'owner');
  });

  it('anything else named or typed like a PDF keeps the rules of its own type', async () => {
    const cases: [string | Uint8Array, string, string, 'inline' | 'attachment'][] = [
      ['<script>alert(document.domain)</script>', 'figures.pdf', 'text/html', 'attachment'],
      [PDF, 'figures.html', 'application/pdf', 'attachment'],
      [PDF, 'figures.pdf', 'application/x-pdf', 'attachment'],
      ['plain words', 'notes.pdf', 'text/plain', 'inline'],
    ];
    for (const [bytes, name, type, disposition] of cases) {
      const id = await share('file', await upload(bytes, name, type));
      const res = await t.request('GET', `/s/${id}/content?preview=1`);
      expect(res.status, `${name} as ${type}`).toBe(200);
      expect(res.headers.get('content-security-policy')).toBe('sandbox');
      expect(res.headers.get('content-disposition'), `${name} as ${type}`).toMatch(new RegExp(`^${disposition};`));
    }
  });

  it('counts as every preview does: nothing beyond the visit, unless the share has a download maximum', async () => {
    const free = await share('file', await upload(PDF, 'free.pdf', 'application/pdf'));
    await t.request('GET', `/s/${free}`);
    await t.request('GET', `/s/${free}/content?preview=1`);
    await t.request('GET', `/s/${free}/content?preview=1`, { headers: { Range: 'bytes=100-199' } });
    expect(await shareCounts(t.request, token, free)).toEqual({ views: 1, downloads: 0 });

    const limited = await share('file', await upload(PDF, 'limited.pdf', 'application/pdf'), { maxDownloads: 2 });
    await t.request('GET', `/s/${limited}`);
    expect((await t.request('GET', `/s/${limited}/content?preview=1`)).status).toBe(200);
    // A later range counts nothing more (the page's viewer reads such a share in one request all the same: once
    // the preview used the last download, a range would find the share gone).
    const later = await t.request('GET', `/s/${limited}/content?preview=1`, { headers: { Range: 'bytes=100-199' } });
    expect(later.status).toBe(206);
    expect(await shareCounts(t.request, token, limited)).toEqual({ views: 1, downloads: 1 });
  });
});

describe('pdf.js itself: served by us, outside the first visit', () => {
  /** The assets a file of ours names: `/assets/…` in a shell, or a chunk's own imports and URLs. */
  const namedAssets = (text: string) => [...new Set([...text.matchAll(/\/?assets\/([\w.-]+)/g)].map((m) => m[1]!))];

  it('the share page names no pdf.js; its scripts load the viewer\'s chunk, which names the worker, fonts and CMaps', async () => {
    const id = await share('file', await upload(PDF, 'chunks.pdf', 'application/pdf'));
    const shell = await t.request('GET', `/s/${id}`);
    const firstVisit = namedAssets(shell.text);
    expect(firstVisit.filter((name) => /pdf/i.test(name))).toEqual([]);

    // The entry, or a chunk it shares with the dashboard, imports the viewer by name, lazily.
    const scripts = firstVisit.filter((name) => name.endsWith('.js'));
    const entryText = (await Promise.all(scripts.map((name) => t.request('GET', `/assets/${name}`))))
      .map((res) => res.text)
      .join('\n');
    const engine = [...entryText.matchAll(/pdf-engine-[\w-]{8}\.js/g)][0]?.[0];
    expect(engine, 'the share page imports the viewer by name, lazily').toBeDefined();

    const chunk = await t.request('GET', `/assets/${engine}`);
    expect(chunk.status).toBe(200);
    expect(chunk.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const named = namedAssets(chunk.text);
    const worker = named.find((name) => /^pdf\.worker\.min-[\w-]{8}\.mjs$/.test(name));
    expect(worker).toBeDefined();
    expect(named.filter((name) => name.endsWith('.bcmap')).length).toBeGreaterThan(100);
    expect(named.filter((name) => /\.(pfb|ttf)$/.test(name)).length).toBeGreaterThanOrEqual(14);
    // Nothing from another origin: no CDN for the worker, the fonts or the CMaps.
    expect(chunk.text).not.toMatch(/https?:\/\/(?!www\.w3\.org|ns\.adobe\.com|mozilla\.github\.io)[\w.-]+\//);

    const workerFile = await t.request('GET', `/assets/${worker}`);
    expect(workerFile.status).toBe(200);
    // What would run a PDF's JavaScript is pdf.js's scripting sandbox (QuickJS, in pdf.sandbox.mjs): shipped nowhere.
    for (const text of [entryText, chunk.text, workerFile.text]) expect(text).not.toMatch(/QuickJS|pdf\.sandbox/i);
    expect(workerFile.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(workerFile.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // The assets' policy is the worker's own: no network, no eval, no WebAssembly inside it.
    expect(workerFile.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    for (const name of ['LiberationSans-Regular', 'UniJIS-UCS2-H']) {
      const asset = named.find((n) => n.startsWith(`${name}-`))!;
      const res = await t.request('GET', `/assets/${asset}`);
      expect(res.status, asset).toBe(200);
      expect(res.bytes.length, asset).toBeGreaterThan(1000);
    }
  });
});
