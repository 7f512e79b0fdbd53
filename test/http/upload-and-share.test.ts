import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backends, type Backend } from '../support/backends.js';

const FUTURE = '2999-01-01T00:00:00.000Z';

function form(fields: Record<string, string>, content: string | Uint8Array = 'hello', filename = 'shot.png', type = 'image/png') {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  body.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)], { type }), filename);
  return body;
}

describe.each(await backends({ limits: { shares: 3 } }))('one-request upload and share, urls and ShareX (%s)', (_, make) => {
  let app: Backend;
  let token: string;
  beforeEach(async () => {
    app = await make();
    token = await app.userToken('alice');
  });
  afterEach(() => app.close());

  const usage = async () => (await app.request('GET', '/api/usage/stats', { token })).body;

  it('uploads and shares in one multipart request; the answer carries shareId and the page url, which answers', async () => {
    const fields = { share: 'true', password: 'let me in', expiresAt: FUTURE, maxViews: '3', maxDownloads: '2' };
    const res = await app.request('POST', '/api/file', { token, body: form(fields) });
    expect(res.status).toBe(201);
    expect(res.body.shareId).toEqual(expect.any(String));
    expect(res.body.url).toBe(`${app.url}/s/${res.body.shareId}`);

    const share = await app.request('GET', `/api/share/${res.body.shareId}`, { headers: { 'x-share-password': 'let me in' } });
    expect(share.body).toMatchObject({ type: 'file', protected: true, expiresAt: FUTURE, maxViews: 3, maxDownloads: 2 });
    expect(share.body.file.id).toBe(res.body.id);
    const page = await fetch(res.body.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('refuses share options without share=true, bad options and unknown fields, before storing anything', async () => {
    const before = await usage();
    const refusals: Record<string, string>[] = [
      { password: 'x' },
      { maxViews: '2' },
      { share: 'true', maxViews: '0' },
      { share: 'true', maxDownloads: 'many' },
      { share: 'true', expiresAt: '2001-01-01T00:00:00Z' },
      { share: 'true', expiresAt: 'tomorrow' },
      { share: 'yes' },
      { burnAfterReading: 'true' },
    ];
    for (const fields of refusals) {
      const res = await app.request('POST', '/api/file', { token, body: form(fields) });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.error).toBe('bad_request');
    }
    const twice = new FormData();
    twice.append('share', 'true');
    twice.append('share', 'false');
    twice.append('file', new Blob(['x']), 'x.txt');
    expect((await app.request('POST', '/api/file', { token, body: twice })).status).toBe(400);
    expect(await usage()).toEqual(before);
  });

  it('keeps no file when its share cannot be made (the share limit), and says which limit', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await app.request('POST', '/api/paste', { token, json: { content: `p${i}`, share: true } })).status).toBe(201);
    }
    const before = await usage();
    expect(before.shares).toEqual({ current: 3, max: 3 });
    const res = await app.request('POST', '/api/file', { token, body: form({ share: 'true' }) });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'limit_reached', limit: 'shares' });
    expect(await usage()).toEqual(before);
  });

  it('shares a paste in the same request, and refuses share options without share: true', async () => {
    const res = await app.request('POST', '/api/paste', { token, json: { content: 'secret note', share: true, maxViews: 1 } });
    expect(res.status).toBe(201);
    expect(res.body.url).toBe(`${app.url}/s/${res.body.shareId}`);
    const read = await app.request('GET', `/api/share/${res.body.shareId}`);
    expect(read.body).toMatchObject({ type: 'paste', maxViews: 1, paste: { content: 'secret note' } });
    expect((await app.request('GET', `/api/share/${res.body.shareId}`)).status).toBe(410);

    const before = await usage();
    const refused = await app.request('POST', '/api/paste', { token, json: { content: 'x', maxViews: 1 } });
    expect(refused.status).toBe(400);
    expect(refused.body.issues).toEqual([{ path: 'maxViews', message: expect.any(String) }]);
    expect(await usage()).toEqual(before);
  });

  it('gives every file, folder, collection and paste that has a share the url of its page, wherever it is listed', async () => {
    const folder = (await app.request('POST', '/api/folder', { token, json: { name: 'Shots' } })).body;
    const shared = (await app.request('POST', '/api/file', { token, body: form({ folderId: folder.id, share: 'true' }) })).body;
    const plain = (await app.request('POST', '/api/file', { token, body: form({ folderId: folder.id }) })).body;
    const folderShare = (await app.request('POST', '/api/share', { token, json: { type: 'folder', id: folder.id } })).body;
    const page = (id: string) => `${app.url}/s/${id}`;

    expect((await app.request('GET', `/api/file/${shared.id}`, { token })).body.url).toBe(page(shared.shareId));
    expect((await app.request('GET', `/api/file/${plain.id}`, { token })).body).not.toHaveProperty('url');
    const tree = (await app.request('GET', `/api/folder/${folder.id}`, { token })).body;
    expect(tree.url).toBe(page(folderShare.id));
    const byId = Object.fromEntries(tree.files.map((f: { id: string }) => [f.id, f]));
    expect(byId[shared.id].url).toBe(page(shared.shareId));
    expect(byId[plain.id]).not.toHaveProperty('url');
    const root = (await app.request('GET', '/api/folder', { token })).body;
    expect(root.folders[0].url).toBe(page(folderShare.id));
    const found = (await app.request('POST', '/api/search', { token, json: { query: 'shot' } })).body;
    expect(found.files.find((f: { id: string }) => f.id === shared.id).url).toBe(page(shared.shareId));
  });

  it('hands out a ShareX config whose own fields, sent as ShareX sends them, upload and share in one request', async () => {
    const res = await app.request('POST', '/api/token/sharex', { token, json: { name: 'My laptop' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="My-laptop\.sxcu"/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const config = JSON.parse(res.text);
    expect(config).toMatchObject({
      DestinationType: 'ImageUploader, TextUploader, FileUploader',
      RequestMethod: 'POST',
      RequestURL: `${app.url}/api/file`,
      Body: 'MultipartFormData',
      FileFormName: 'file',
      URL: '{json:url}',
      ErrorMessage: '{json:message}',
    });
    // The token it made is an uploader token, listed like any other (without its secret).
    expect((await app.request('GET', '/api/token', { token })).body.map((t: { name: string }) => t.name)).toContain('My laptop');

    // What ShareX sends: the headers, the arguments as form fields, the capture under FileFormName.
    const sharex = async (fileName: string, bytes: string) => {
      const body = new FormData();
      for (const [name, value] of Object.entries(config.Arguments as Record<string, string>)) body.append(name, value);
      body.append(config.FileFormName, new Blob([bytes], { type: 'image/png' }), fileName);
      const answer = await fetch(config.RequestURL, { method: config.RequestMethod, headers: config.Headers, body });
      return { status: answer.status, json: (await answer.json()) as Record<string, string> };
    };
    // ShareX's {json:path} reads the path out of the answer.
    const fill = (template: string, json: Record<string, string>) =>
      template.replace(/\{json:([^}]+)\}/g, (_, path: string) => String(json[path]));

    const upload = await sharex('capture.png', 'PNG bytes');
    expect(upload.status).toBe(201);
    const link = fill(config.URL, upload.json);
    expect(link).toBe(`${app.url}/s/${upload.json['shareId']}`);
    expect((await fetch(link)).status).toBe(200);
    const content = await fetch(`${app.url}/api/share/${upload.json['shareId']}/content`);
    expect(await content.text()).toBe('PNG bytes');

    // Revoked: ShareX shows Coffer's own message.
    const tokens = (await app.request('GET', '/api/token', { token })).body as { id: string; name: string }[];
    await app.request('DELETE', `/api/token/${tokens.find((t) => t.name === 'My laptop')!.id}`, { token });
    const refused = await sharex('capture.png', 'PNG bytes');
    expect(refused.status).toBe(401);
    expect(fill(config.ErrorMessage, refused.json)).toMatch(/token/i);
  });

  it('answers a second share of an item with 409 naming the share it has', async () => {
    const file = (await app.request('POST', '/api/file', { token, body: form({ share: 'true' }) })).body;
    const again = await app.request('POST', '/api/share', { token, json: { type: 'file', id: file.id } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'conflict', shareId: file.shareId });
  });

  it('counts a paste share read as a download too, so maxDownloads holds for its content', async () => {
    const paste = (await app.request('POST', '/api/paste', { token, json: { content: 'once', share: true, maxDownloads: 1 } })).body;
    const first = await app.request('GET', `/api/share/${paste.shareId}`);
    expect(first.body).toMatchObject({ views: 1, downloads: 1, paste: { content: 'once' } });
    expect((await app.request('GET', `/api/share/${paste.shareId}`)).status).toBe(410);
    expect((await app.request('GET', `/api/share/${paste.shareId}/content`)).status).toBe(410);
  });

  it('lets only a session ask for a ShareX config', async () => {
    const created = (await app.request('POST', '/api/token', { token, json: { name: 'uploader' } })).body;
    const res = await app.request('POST', '/api/token/sharex', { token: created.token, json: { name: 'x' } });
    expect(res.status).toBe(403);
  });
});
