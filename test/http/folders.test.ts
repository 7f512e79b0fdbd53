import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let t: HttpTest;
let alice: string;
afterEach(() => t.close());
beforeEach(async () => {
  t = await makeHttp();
  alice = await t.userToken('alice');
});

async function folder(name: string, parentId: string | null = null, token = alice): Promise<string> {
  const res = await t.request('POST', '/api/folder', { token, json: { name, parentId } });
  expect(res.status).toBe(201);
  return res.body.id;
}

describe('POST /api/folder', () => {
  it('answers 201 with the Folder, refs null and timestamps ISO', async () => {
    const { userId } = await t.user('alice');
    const res = await t.request('POST', '/api/folder', { token: alice, json: { name: 'docs' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'docs',
      ownerId: userId,
      parentId: null,
      files: [],
      folders: [],
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
      shareId: null,
    });
    const child = await t.request('POST', '/api/folder', { token: alice, json: { name: 'sub', parentId: res.body.id } });
    expect(child.body.parentId).toBe(res.body.id);
  });

  it('answers 400 on a missing or non-string name, a bad parentId and malformed JSON', async () => {
    for (const json of [{}, { name: 3 }, { name: '' }, { name: 'x', parentId: 5 }, { name: 'x', parentId: '' }]) {
      const res = await t.request('POST', '/api/folder', { token: alice, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.error).toBe('bad_request');
    }
    const res = await t.request('POST', '/api/folder', {
      token: alice,
      body: '{"name": "x"',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
  });

  it('answers 404 for another user parent, 401 without a token, 403 for an API token', async () => {
    const bobFolder = await folder('b', null, await t.userToken('bob'));
    expect((await t.request('POST', '/api/folder', { token: alice, json: { name: 'x', parentId: bobFolder } })).status)
      .toBe(404);
    expect((await t.request('POST', '/api/folder', { json: { name: 'x' } })).status).toBe(401);
    const api = (await t.request('POST', '/api/token', { token: alice, json: { name: 'ci' } })).body.token;
    const res = await t.request('POST', '/api/folder', { token: api, json: { name: 'x' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('forbidden');
  });
});

describe('reading folders', () => {
  it('GET /api/folder lists the top level with counts', async () => {
    const docs = await folder('docs');
    await folder('inner', docs);
    await t.upload(alice, 'x', { filename: 'top.txt' });
    const res = await t.request('GET', '/api/folder', { token: alice });
    expect(res.status).toBe(200);
    expect(res.body.files.map((f: { name: string }) => f.name)).toEqual(['top.txt']);
    expect(res.body.folders).toHaveLength(1);
    expect(res.body.folders[0]).toMatchObject({ id: docs, fileCount: 0, folderCount: 1 });
    expect(Number.isInteger(res.body.folders[0].folderCount)).toBe(true);
    expect((await t.request('GET', '/api/folder')).status).toBe(401);
  });

  it('GET /api/folder/{id} returns the whole subtree', async () => {
    const docs = await folder('docs');
    const sub = await folder('sub', docs);
    await t.upload(alice, 'deep', { filename: 'deep.txt', folderId: sub });
    const res = await t.request('GET', `/api/folder/${docs}`, { token: alice });
    expect(res.status).toBe(200);
    expect(res.body.folders[0]).toMatchObject({ id: sub, parentId: docs });
    expect(res.body.folders[0].files[0]).toMatchObject({ name: 'deep.txt', size: '4', folderId: sub });
  });

  it('answers 404 for another user folder and an unknown one, 401 without a token', async () => {
    const docs = await folder('docs');
    const bob = await t.userToken('bob');
    expect((await t.request('GET', `/api/folder/${docs}`, { token: bob })).status).toBe(404);
    expect((await t.request('GET', '/api/folder/nope', { token: alice })).status).toBe(404);
    expect((await t.request('GET', `/api/folder/${docs}`)).status).toBe(401);
  });
});

describe('reading through X-Share-Id', () => {
  let shared: string;
  let sub: string;
  let sibling: string;
  let deepFile: string;
  let outsideFile: string;
  let shareId: string;

  beforeEach(async () => {
    const root = await folder('root');
    shared = await folder('shared', root);
    sub = await folder('sub', shared);
    sibling = await folder('sibling', root);
    deepFile = (await t.upload(alice, 'deep bytes', { filename: 'deep.txt', folderId: sub })).body.id;
    outsideFile = (await t.upload(alice, 'outside', { filename: 'out.txt', folderId: sibling })).body.id;
    shareId = (await t.request('POST', '/api/share', { token: alice, json: { type: 'folder', id: shared } })).body.id;
  });

  const viaShare = (path: string, extra: Record<string, string> = {}) =>
    t.request('GET', path, { headers: { 'x-share-id': shareId, ...extra } });

  it('lets anyone read the shared folder, a descendant folder and a file in a subfolder', async () => {
    const top = await viaShare(`/api/folder/${shared}`);
    expect(top.status).toBe(200);
    expect(top.body.folders[0].id).toBe(sub);
    expect((await viaShare(`/api/folder/${sub}`)).status).toBe(200);
    const file = await viaShare(`/api/file/${deepFile}`);
    expect(file.status).toBe(200);
    expect(file.body.name).toBe('deep.txt');
    const bytes = await viaShare(`/api/file/${deepFile}/content`);
    expect(bytes.status).toBe(200);
    expect(bytes.text).toBe('deep bytes');
  });

  it('answers 404 for a sibling folder, a file outside and an unknown share', async () => {
    expect((await viaShare(`/api/folder/${sibling}`)).status).toBe(404);
    expect((await viaShare(`/api/file/${outsideFile}`)).status).toBe(404);
    expect((await viaShare(`/api/file/${outsideFile}/content`)).status).toBe(404);
    const unknown = await t.request('GET', `/api/folder/${shared}`, { headers: { 'x-share-id': 'not-a-share' } });
    expect(unknown.status).toBe(404);
  });

  it('lets no share header write anything', async () => {
    const res = await t.request('DELETE', `/api/folder/${shared}`, { headers: { 'x-share-id': shareId } });
    expect(res.status).toBe(401);
  });

  it('needs the password of a protected share: missing, wrong, right', async () => {
    await t.request('PATCH', `/api/share/${shareId}`, { token: alice, json: { password: 'sésame-1' } });
    const missing = await viaShare(`/api/folder/${sub}`);
    expect(missing.status).toBe(401);
    expect(missing.body.error).toBe('share_password_required');
    const wrong = await viaShare(`/api/folder/${sub}`, { 'x-share-password': 'nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('share_password_invalid');
    const right = await t.request('GET', `/api/folder/${sub}`, {
      headers: { 'x-share-id': shareId, 'x-share-password': Buffer.from('sésame-1').toString('latin1') },
    });
    expect(right.status).toBe(200);
  });
});

describe('PATCH and DELETE /api/folder/{id}', () => {
  it('renames and moves, never into its own subtree', async () => {
    const a = await folder('a');
    const b = await folder('b');
    const child = await folder('child', a);
    const renamed = await t.request('PATCH', `/api/folder/${a}`, { token: alice, json: { name: 'A' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: a, name: 'A' });
    const moved = await t.request('PATCH', `/api/folder/${a}`, { token: alice, json: { parentId: b } });
    expect(moved.body.parentId).toBe(b);
    const loop = await t.request('PATCH', `/api/folder/${a}`, { token: alice, json: { parentId: child } });
    expect(loop.status).toBe(400);
    expect((await t.request('PATCH', `/api/folder/${a}`, { token: alice, json: { parentId: 1 } })).status).toBe(400);
    const bob = await t.userToken('bob');
    expect((await t.request('PATCH', `/api/folder/${a}`, { token: bob, json: { name: 'x' } })).status).toBe(404);
  });

  it('deletes the subtree with 204 and releases its counts', async () => {
    const a = await folder('a');
    const inner = await folder('inner', a);
    await t.upload(alice, 'abc', { folderId: inner });
    const bob = await t.userToken('bob');
    expect((await t.request('DELETE', `/api/folder/${a}`, { token: bob })).status).toBe(404);
    const res = await t.request('DELETE', `/api/folder/${a}`, { token: alice });
    expect(res.status).toBe(204);
    expect((await t.request('GET', `/api/folder/${inner}`, { token: alice })).status).toBe(404);
    const usage = (await t.request('GET', '/api/usage/stats', { token: alice })).body;
    expect(usage).toMatchObject({ storage: { current: '0' }, files: { current: 0 }, folders: { current: 0 } });
  });
});
