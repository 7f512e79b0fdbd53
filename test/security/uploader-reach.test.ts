import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';

let t: HttpTest;
let alice: string;
afterEach(() => t.close());
beforeEach(async () => {
  t = await makeHttp();
  alice = await t.userToken('alice');
});

const post = (path: string, token: string, json: unknown) => t.request('POST', path, { token, json });
const through = (shareId: string) => ({ headers: { 'x-share-id': shareId } });

async function apiToken(name = 'ci'): Promise<string> {
  return (await post('/api/token', alice, { name })).body.token;
}

async function shareOf(type: string, id: string, token = alice): Promise<string> {
  const res = await post('/api/share', token, { type, id });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** A private folder holding a private file and one file alice chose to share on its own. */
async function privateFolderWithPublicFile() {
  const folder = (await post('/api/folder', alice, { name: 'private' })).body;
  const secret = (await t.upload(alice, 'private bytes', { folderId: folder.id, filename: 'secret.txt' })).body;
  const shown = (await t.upload(alice, 'public bytes', { folderId: folder.id, filename: 'public.txt' })).body;
  return { folder, secret, shown, link: await shareOf('file', shown.id) };
}

describe('an uploader token cannot widen its reach', () => {
  it('refuses the attack: public file share → its folder id → token shares that folder → private files', async () => {
    const { folder, secret, shown, link } = await privateFolderWithPublicFile();
    const api = await apiToken();

    // Step one fails: the share reader learns no folder id.
    const read = await t.request('GET', `/api/file/${shown.id}`, through(link));
    expect(read.status).toBe(200);
    expect(read.body.folderId).toBeNull();

    // Step two fails even for a token that knows the id some other way.
    const folderShare = await post('/api/share', api, { type: 'folder', id: folder.id });
    expect(folderShare.status).toBe(403);
    expect(folderShare.body.error).toBe('forbidden');
    const fileShare = await post('/api/share', api, { type: 'file', id: secret.id });
    expect(fileShare.status).toBe(404);

    // Nothing new is public: alice's only share is the one she made, and the private file reads through nothing.
    expect((await t.request('GET', '/api/share', { token: alice })).body.map((s: { id: string }) => s.id)).toEqual([link]);
    expect((await t.request('GET', `/api/file/${secret.id}/content`, through(link))).status).toBe(404);
  });

  it('shares only what the same token uploaded or pasted', async () => {
    const api = await apiToken('first');
    const other = await apiToken('second');
    const own = (await t.upload(api, 'from the script')).body;
    const paste = (await post('/api/paste', api, { content: 'pasted by the script' })).body;
    const byOther = (await t.upload(other, 'from another script')).body;
    const bySession = (await post('/api/paste', alice, { content: 'typed by alice' })).body;

    expect((await post('/api/share', api, { type: 'file', id: own.id })).status).toBe(201);
    expect((await post('/api/share', api, { type: 'paste', id: paste.id })).status).toBe(201);
    for (const [type, id] of [
      ['file', byOther.id],
      ['paste', bySession.id],
    ]) {
      const res = await post('/api/share', api, { type, id });
      expect(res.status, `${type} ${id}`).toBe(404);
      expect(res.body.error).toBe('not_found');
    }
    // A session keeps full rights over everything of its user, whichever token made it.
    expect((await post('/api/share', alice, { type: 'file', id: byOther.id })).status).toBe(201);
    expect((await post('/api/share', alice, { type: 'paste', id: bySession.id })).status).toBe(201);
  });

  it('may share no folder or collection, even one it could name; 403 whether or not it exists', async () => {
    const api = await apiToken();
    const folder = (await post('/api/folder', alice, { name: 'f' })).body;
    const collection = (await post('/api/collection', alice, { name: 'c' })).body;
    for (const [type, id] of [
      ['folder', folder.id],
      ['collection', collection.id],
      ['folder', 'no-such-folder'],
      ['collection', 'no-such-collection'],
    ]) {
      expect((await post('/api/share', api, { type, id })).status, `${type} ${id}`).toBe(403);
    }
    expect((await t.request('GET', '/api/share', { token: alice })).body).toEqual([]);
  });
});

describe('share readers learn no ids outside what was shared', () => {
  it('a file share shows no folder id; its owner still sees it', async () => {
    const { folder, shown, link } = await privateFolderWithPublicFile();
    const bob = await t.userToken('bob');
    expect((await t.request('GET', `/api/file/${shown.id}`, through(link))).body.folderId).toBeNull();
    const asBob = await t.request('GET', `/api/file/${shown.id}`, { token: bob, ...through(link) });
    expect(asBob.body.folderId).toBeNull();
    expect((await t.request('GET', `/api/file/${shown.id}`, { token: alice })).body.folderId).toBe(folder.id);
  });

  it('a collection share shows none of its files folder ids', async () => {
    const { folder, secret, shown } = await privateFolderWithPublicFile();
    const collection = (await post('/api/collection', alice, { name: 'picked' })).body;
    for (const file of [secret, shown]) {
      await t.request('PUT', `/api/collection/${collection.id}/file/${file.id}`, { token: alice });
    }
    const link = await shareOf('collection', collection.id);
    const read = await t.request('GET', `/api/collection/${collection.id}`, through(link));
    expect(read.status).toBe(200);
    expect(read.body.files).toHaveLength(2);
    for (const file of read.body.files) expect(file.folderId).toBeNull();
    const one = await t.request('GET', `/api/file/${secret.id}`, through(link));
    expect(one.body.folderId).toBeNull();
    const owner = await t.request('GET', `/api/collection/${collection.id}`, { token: alice });
    expect(owner.body.files.map((f: { folderId: string }) => f.folderId)).toEqual([folder.id, folder.id]);
  });

  it('a folder share hides the shared folder parent, and keeps the ids inside it', async () => {
    const outer = (await post('/api/folder', alice, { name: 'outer' })).body;
    const shared = (await post('/api/folder', alice, { name: 'shared', parentId: outer.id })).body;
    const inner = (await post('/api/folder', alice, { name: 'inner', parentId: shared.id })).body;
    const file = (await t.upload(alice, 'deep', { folderId: inner.id })).body;
    const link = await shareOf('folder', shared.id);

    const tree = await t.request('GET', `/api/folder/${shared.id}`, through(link));
    expect(tree.status).toBe(200);
    expect(tree.body.parentId).toBeNull();
    expect(tree.body.folders[0]).toMatchObject({ id: inner.id, parentId: shared.id });
    expect(tree.body.folders[0].files[0]).toMatchObject({ id: file.id, folderId: inner.id });
    expect((await t.request('GET', `/api/folder/${inner.id}`, through(link))).body.parentId).toBe(shared.id);
    expect((await t.request('GET', `/api/file/${file.id}`, through(link))).body.folderId).toBe(inner.id);
    expect(JSON.stringify(tree.body)).not.toContain(outer.id);
    expect((await t.request('GET', `/api/folder/${shared.id}`, { token: alice })).body.parentId).toBe(outer.id);
  });
});
