import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';

let t: HttpTest;
let alice: string;
let fileId: string;
afterEach(() => t.close());
beforeEach(async () => {
  t = await makeHttp();
  alice = await t.userToken('alice');
  fileId = (await t.upload(alice, 'shared bytes', { filename: 'doc.txt' })).body.id;
});

const share = (json: unknown, token = alice) => t.request('POST', '/api/share', { token, json });

describe('POST /api/share', () => {
  it('answers 201 with the Share carrying only the matching item', async () => {
    const { userId } = await t.user('alice');
    const res = await share({ type: 'file', id: fileId });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{22,}$/),
      ownerId: userId,
      type: 'file',
      createdAt: expect.any(String),
      expiresAt: null,
      views: 0,
      maxViews: null,
      downloads: 0,
      maxDownloads: null,
      state: 'active',
      protected: false,
      url: `${t.url}/s/${res.body.id}`,
      notify: { email: false },
      owner: { id: userId, username: 'alice' },
      file: { id: fileId, name: 'doc.txt', size: '12', mime: 'text/plain' },
    });
    const file = await t.request('GET', `/api/file/${fileId}`, { token: alice });
    expect(file.body.shareId).toBe(res.body.id);
  });

  it('answers 409 for a second share of the same item', async () => {
    expect((await share({ type: 'file', id: fileId })).status).toBe(201);
    const again = await share({ type: 'file', id: fileId, password: 'secret-1' });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('conflict');
  });

  it('answers 400 for an unknown type, a missing id or a wrong password type', async () => {
    for (const json of [{ type: 'album', id: fileId }, { type: 'file' }, { type: 'file', id: fileId, password: 3 }]) {
      const res = await share(json);
      expect(res.status, JSON.stringify(json)).toBe(400);
    }
  });

  it('answers 404 for another user item and 401 without a token', async () => {
    const bob = await t.userToken('bob');
    expect((await share({ type: 'file', id: fileId }, bob)).status).toBe(404);
    expect((await t.request('POST', '/api/share', { json: { type: 'file', id: fileId } })).status).toBe(401);
  });

  it('creating is allowed to an API token (for what it uploaded), listing is not', async () => {
    const api = (await t.request('POST', '/api/token', { token: alice, json: { name: 'ci' } })).body.token;
    const own = (await t.upload(api, 'from the script')).body.id;
    expect((await share({ type: 'file', id: own }, api)).status).toBe(201);
    expect((await t.request('GET', '/api/share', { token: api })).status).toBe(403);
  });
});

describe('reading shares', () => {
  let shareId: string;
  beforeEach(async () => {
    shareId = (await share({ type: 'file', id: fileId })).body.id;
  });

  it('GET /api/share lists the caller shares only', async () => {
    const bob = await t.userToken('bob');
    const mine = await t.request('GET', '/api/share', { token: alice });
    expect(mine.status).toBe(200);
    expect(mine.body.map((s: { id: string }) => s.id)).toEqual([shareId]);
    expect((await t.request('GET', '/api/share', { token: bob })).body).toEqual([]);
    expect((await t.request('GET', '/api/share')).status).toBe(401);
  });

  it('GET /api/share/{id} is public and counts a view per successful read', async () => {
    const first = await t.request('GET', `/api/share/${shareId}`);
    expect(first.status).toBe(200);
    expect(first.body.views).toBe(1);
    const second = await t.request('GET', `/api/share/${shareId}`);
    expect(second.body.views).toBe(2);
    expect(Number.isInteger(second.body.views)).toBe(true);
    expect((await t.request('GET', '/api/share/unknown-share')).status).toBe(404);
  });

  it('a token sent to a public read must be valid', async () => {
    const res = await t.request('GET', `/api/share/${shareId}`, { token: 'bogus' });
    expect(res.status).toBe(401);
  });

  it('GET /api/share/{id}/content downloads the shared file', async () => {
    const res = await t.request('GET', `/api/share/${shareId}/content`);
    expect(res.status).toBe(200);
    expect(res.text).toBe('shared bytes');
    expect(res.headers.get('content-security-policy')).toBe('sandbox');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="doc.txt"');
    const range = await t.request('GET', `/api/share/${shareId}/content`, { headers: { range: 'bytes=0-5' } });
    expect(range.status).toBe(206);
    expect(range.text).toBe('shared');
    expect((await t.request('GET', `/api/share/${shareId}`)).body.views).toBe(1);
  });

  it('a protected share answers 401 until the right password comes; the owner needs none', async () => {
    const set = await t.request('PATCH', `/api/share/${shareId}`, { token: alice, json: { password: 'pass-word' } });
    expect(set.status).toBe(200);
    expect(set.body.protected).toBe(true);
    for (const path of [`/api/share/${shareId}`, `/api/share/${shareId}/content`]) {
      const missing = await t.request('GET', path);
      expect(missing.status).toBe(401);
      expect(missing.body.error).toBe('share_password_required');
      expect(missing.headers.get('www-authenticate')).toBe('Token, Bearer');
      const wrong = await t.request('GET', path, { headers: { 'x-share-password': 'nope' } });
      expect(wrong.body.error).toBe('share_password_invalid');
      const right = await t.request('GET', path, { headers: { 'x-share-password': 'pass-word' } });
      expect(right.status).toBe(200);
      expect((await t.request('GET', path, { token: alice })).status).toBe(200);
    }
    // The read of the share with the right password counted a view, the content read a download; the owner's
    // reads (this one too) count nothing.
    const counts = (await t.request('GET', `/api/share/${shareId}`, { token: alice })).body;
    expect([counts.views, counts.downloads]).toEqual([1, 1]);
    const cleared = await t.request('PATCH', `/api/share/${shareId}`, { token: alice, json: { password: null } });
    expect(cleared.body.protected).toBe(false);
    expect((await t.request('GET', `/api/share/${shareId}`)).status).toBe(200);
  });

  it('PATCH with nothing to change answers the share as it is; 404 for another user', async () => {
    const same = await t.request('PATCH', `/api/share/${shareId}`, { token: alice, json: {} });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ id: shareId, protected: false, views: 0 });
    const bob = await t.userToken('bob');
    expect((await t.request('PATCH', `/api/share/${shareId}`, { token: bob, json: { password: null } })).status)
      .toBe(404);
  });

  it('DELETE answers 204 and the link stops working; 404 for another user', async () => {
    const bob = await t.userToken('bob');
    expect((await t.request('DELETE', `/api/share/${shareId}`, { token: bob })).status).toBe(404);
    expect((await t.request('DELETE', `/api/share/${shareId}`, { token: alice })).status).toBe(204);
    expect((await t.request('GET', `/api/share/${shareId}`)).status).toBe(404);
    expect((await t.request('GET', `/api/file/${fileId}`, { headers: { 'x-share-id': shareId } })).status).toBe(404);
  });

  it('deleting the item deletes its share', async () => {
    await t.request('DELETE', `/api/file/${fileId}`, { token: alice });
    expect((await t.request('GET', `/api/share/${shareId}`)).status).toBe(404);
    expect((await t.request('GET', '/api/usage/stats', { token: alice })).body.shares.current).toBe(0);
  });
});

describe('other kinds of share', () => {
  it('a paste share carries the paste and its content downloads as text', async () => {
    const paste = (await t.request('POST', '/api/paste', { token: alice, json: { content: 'hi there' } })).body;
    const res = await share({ type: 'paste', id: paste.id });
    expect(res.body.paste).toEqual({ id: paste.id, name: paste.name, type: 'text', content: 'hi there' });
    expect(res.body.file).toBeUndefined();
    const content = await t.request('GET', `/api/share/${res.body.id}/content`);
    expect(content.status).toBe(200);
    expect(content.text).toBe('hi there');
    expect(content.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('a folder share has counts and no content; a collection share reaches its files', async () => {
    const folder = (await t.request('POST', '/api/folder', { token: alice, json: { name: 'f' } })).body;
    const folderShare = (await share({ type: 'folder', id: folder.id })).body;
    expect(folderShare.folder).toEqual({ id: folder.id, name: 'f', fileCount: 0, folderCount: 0 });
    expect((await t.request('GET', `/api/share/${folderShare.id}/content`)).status).toBe(400);

    const col = (await t.request('POST', '/api/collection', { token: alice, json: { name: 'c' } })).body;
    await t.request('PUT', `/api/collection/${col.id}/file/${fileId}`, { token: alice });
    const colShare = (await share({ type: 'collection', id: col.id })).body;
    expect(colShare.collection).toEqual({ id: col.id, name: 'c', fileCount: 1 });
    const headers = { 'x-share-id': colShare.id };
    expect((await t.request('GET', `/api/collection/${col.id}`, { headers })).body.count).toBe(1);
    expect((await t.request('GET', `/api/file/${fileId}/content`, { headers })).text).toBe('shared bytes');
  });
});
