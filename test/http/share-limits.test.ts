import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest, type Reply } from '../support/http.js';

const HOUR = 3600_000;
const BYTES = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));

let t: HttpTest;
let alice: string;
let fileId: string;
afterEach(() => t.close());
beforeEach(async () => {
  t = await makeHttp();
  alice = await t.userToken('alice');
  fileId = (await t.upload(alice, BYTES, { filename: 'clip.bin', type: 'application/octet-stream' })).body.id;
});

const share = (json: Record<string, unknown>) => t.request('POST', '/api/share', { token: alice, json });
const patch = (id: string, json: unknown) => t.request('PATCH', `/api/share/${id}`, { token: alice, json });
/** The share as its owner sees it in GET /api/share, which counts nothing. */
const listed = async (id: string) =>
  (await t.request('GET', '/api/share', { token: alice })).body.find((s: { id: string }) => s.id === id);
const later = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();
const statuses = (replies: Reply[]) => replies.map((r) => r.status).sort();
const times = <T>(n: number, make: () => Promise<T>) => Promise.all(Array.from({ length: n }, make));

function expectGone(res: Reply, what: string): void {
  expect(res.status, what).toBe(410);
  expect(res.body, what).toMatchObject({ error: 'gone', message: expect.any(String) });
}

describe('maxViews and maxDownloads under concurrency', () => {
  it('50 parallel reads of a share with maxViews 10 give ten 200s and forty 410s, and views ends at 10', async () => {
    const { id } = (await share({ type: 'file', id: fileId, maxViews: 10 })).body;
    const replies = await times(50, () => t.request('GET', `/api/share/${id}`));
    expect(statuses(replies)).toEqual([...Array(10).fill(200), ...Array(40).fill(410)]);
    expect(replies.filter((r) => r.status === 200).map((r) => r.body.views).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 10 }, (_, i) => i + 1),
    );
    for (const refused of replies.filter((r) => r.status === 410)) expectGone(refused, 'refused view');
    expect(await listed(id)).toMatchObject({ views: 10, downloads: 0, maxViews: 10, state: 'exhausted' });
    expect((await t.ports.shares.findById(id))!.views).toBe(10);
  });

  it('50 parallel downloads with maxDownloads 10 give ten whole files and forty 410s with no bytes', async () => {
    const { id } = (await share({ type: 'file', id: fileId, maxDownloads: 10 })).body;
    const replies = await times(50, () => t.request('GET', `/api/share/${id}/content`));
    expect(statuses(replies)).toEqual([...Array(10).fill(200), ...Array(40).fill(410)]);
    for (const ok of replies.filter((r) => r.status === 200)) expect(ok.bytes.equals(BYTES)).toBe(true);
    for (const refused of replies.filter((r) => r.status === 410)) {
      expectGone(refused, 'refused download');
      expect(refused.headers.get('content-disposition')).toBeNull();
      expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    }
    expect(await listed(id)).toMatchObject({ views: 0, downloads: 10, maxDownloads: 10, state: 'exhausted' });
  });

  it('50 parallel reads through a folder share with maxDownloads 10: ten downloads of the file inside', async () => {
    const folder = (await t.request('POST', '/api/folder', { token: alice, json: { name: 'clips' } })).body;
    const inner = (await t.upload(alice, BYTES, { folderId: folder.id, filename: 'a.bin' })).body.id;
    const { id } = (await share({ type: 'folder', id: folder.id, maxDownloads: 10 })).body;
    const headers = { 'x-share-id': id };
    const replies = await times(50, () => t.request('GET', `/api/file/${inner}/content`, { headers }));
    expect(statuses(replies)).toEqual([...Array(10).fill(200), ...Array(40).fill(410)]);
    expect((await listed(id)).downloads).toBe(10);
  });
});

describe('what counts as a download', () => {
  it('a Range playback (0-, then 1000-2000, then 2001-) counts one download', async () => {
    const { id } = (await share({ type: 'file', id: fileId, maxDownloads: 2 })).body;
    const path = `/api/share/${id}/content`;
    const first = await t.request('GET', path, { headers: { range: 'bytes=0-' } });
    expect(first.status).toBe(206);
    expect(first.bytes.equals(BYTES)).toBe(true);
    const middle = await t.request('GET', path, { headers: { range: 'bytes=1000-2000' } });
    expect(middle.status).toBe(206);
    expect(middle.bytes.equals(BYTES.subarray(1000, 2001))).toBe(true);
    const rest = await t.request('GET', path, { headers: { range: 'bytes=2001-' } });
    expect(rest.status).toBe(206);
    expect(rest.bytes.equals(BYTES.subarray(2001))).toBe(true);
    expect(await listed(id)).toMatchObject({ downloads: 1, state: 'active' });
    // A second playback is the last download allowed; once the maximum is reached the share is gone, for a
    // later range of that playback too.
    expect((await t.request('GET', path, { headers: { range: 'bytes=0-99' } })).status).toBe(206);
    expect(await listed(id)).toMatchObject({ downloads: 2, state: 'exhausted' });
    expectGone(await t.request('GET', path, { headers: { range: 'bytes=3000-' } }), 'later range');
    expectGone(await t.request('GET', path), 'third download');
    expect((await listed(id)).downloads).toBe(2);
  });

  it('a Range playback through a collection share counts one download too', async () => {
    const col = (await t.request('POST', '/api/collection', { token: alice, json: { name: 'c' } })).body;
    await t.request('PUT', `/api/collection/${col.id}/file/${fileId}`, { token: alice });
    const { id } = (await share({ type: 'collection', id: col.id })).body;
    const headers = (range: string) => ({ 'x-share-id': id, range });
    for (const range of ['bytes=0-', 'bytes=1000-2000', 'bytes=2001-']) {
      expect((await t.request('GET', `/api/file/${fileId}/content`, { headers: headers(range) })).status).toBe(206);
    }
    expect(await listed(id)).toMatchObject({ views: 0, downloads: 1 });
  });

  it('metadata reads through X-Share-Id count nothing; a paste read through it counts a download', async () => {
    const folder = (await t.request('POST', '/api/folder', { token: alice, json: { name: 'f' } })).body;
    const inner = (await t.upload(alice, 'x', { folderId: folder.id })).body.id;
    const folderShare = (await share({ type: 'folder', id: folder.id })).body.id;
    const headers = { 'x-share-id': folderShare };
    expect((await t.request('GET', `/api/folder/${folder.id}`, { headers })).status).toBe(200);
    expect((await t.request('GET', `/api/file/${inner}`, { headers })).status).toBe(200);
    expect(await listed(folderShare)).toMatchObject({ views: 0, downloads: 0 });

    const paste = (await t.request('POST', '/api/paste', { token: alice, json: { content: 'secret' } })).body;
    const pasteShare = (await share({ type: 'paste', id: paste.id, maxDownloads: 2 })).body.id;
    const read = () => t.request('GET', `/api/paste/${paste.id}`, { headers: { 'x-share-id': pasteShare } });
    expect((await read()).body.content).toBe('secret');
    expect((await t.request('GET', `/api/share/${pasteShare}/content`)).text).toBe('secret');
    expectGone(await read(), 'third read of the paste');
    expect(await listed(pasteShare)).toMatchObject({ views: 0, downloads: 2 });
  });

  it('owner reads and HEAD requests count nothing and use up no limit', async () => {
    const { id } = (await share({ type: 'file', id: fileId, maxViews: 1, maxDownloads: 1 })).body;
    const api = (await t.request('POST', '/api/token', { token: alice, json: { name: 'cli' } })).body.token;
    for (let i = 0; i < 3; i++) {
      expect((await t.request('GET', `/api/share/${id}`, { token: alice })).status).toBe(200);
      expect((await t.request('GET', `/api/share/${id}`, { token: api })).status).toBe(200);
      expect((await t.request('GET', `/api/share/${id}/content`, { token: alice })).status).toBe(200);
      expect((await t.request('GET', `/api/share/${id}/content`, { token: api })).status).toBe(200);
      expect((await t.request('HEAD', `/api/share/${id}`)).status).toBe(200);
      expect((await t.request('HEAD', `/api/share/${id}/content`)).status).toBe(200);
      const headers = { 'x-share-id': id };
      expect((await t.request('HEAD', `/api/file/${fileId}/content`, { headers })).status).toBe(200);
    }
    expect(await listed(id)).toMatchObject({ views: 0, downloads: 0, state: 'active' });
    // The one view and the one download the owner allowed are still there for someone else.
    expect((await t.request('GET', `/api/share/${id}`)).body).toMatchObject({ views: 1, state: 'exhausted' });
    expectGone(await t.request('GET', `/api/share/${id}/content`), 'download after the last view');
  });

  it('a HEAD of a paste through X-Share-Id counts nothing', async () => {
    const paste = (await t.request('POST', '/api/paste', { token: alice, json: { content: 'p' } })).body;
    const { id } = (await share({ type: 'paste', id: paste.id, maxDownloads: 1 })).body;
    const headers = { 'x-share-id': id };
    expect((await t.request('HEAD', `/api/paste/${paste.id}`, { headers })).status).toBe(200);
    expect((await listed(id)).downloads).toBe(0);
  });

  it('reads refused for a password, a missing item or a gone share count nothing', async () => {
    const { id } = (await share({ type: 'file', id: fileId, password: 'pass-word', maxViews: 1 })).body;
    expect((await t.request('GET', `/api/share/${id}`)).status).toBe(401);
    expect((await t.request('GET', `/api/share/${id}/content`, { headers: { 'x-share-password': 'no' } })).status)
      .toBe(401);
    expect(await listed(id)).toMatchObject({ views: 0, downloads: 0 });
    expect((await t.request('GET', `/api/share/${id}`, { headers: { 'x-share-password': 'pass-word' } })).status)
      .toBe(200);
    expectGone(await t.request('GET', `/api/share/${id}`, { headers: { 'x-share-password': 'pass-word' } }), 'view');
    expect(await listed(id)).toMatchObject({ views: 1, downloads: 0 });
  });
});

describe('a share past its expiry or its maxima', () => {
  /** One share of each kind, and every public read path through them. */
  async function everyPath(options: Record<string, unknown>) {
    const folder = (await t.request('POST', '/api/folder', { token: alice, json: { name: 'f' } })).body;
    const inner = (await t.upload(alice, 'in the folder', { folderId: folder.id })).body.id;
    const col = (await t.request('POST', '/api/collection', { token: alice, json: { name: 'c' } })).body;
    await t.request('PUT', `/api/collection/${col.id}/file/${fileId}`, { token: alice });
    const paste = (await t.request('POST', '/api/paste', { token: alice, json: { content: 'text' } })).body;
    const ids = {
      file: (await share({ type: 'file', id: fileId, ...options })).body.id as string,
      folder: (await share({ type: 'folder', id: folder.id, ...options })).body.id as string,
      collection: (await share({ type: 'collection', id: col.id, ...options })).body.id as string,
      paste: (await share({ type: 'paste', id: paste.id, ...options })).body.id as string,
    };
    const through = (shareId: string) => ({ headers: { 'x-share-id': shareId } });
    const paths: Array<[string, string, { headers: Record<string, string> }?]> = [
      ...Object.values(ids).flatMap((id): Array<[string, string]> => [[`share ${id}`, `/api/share/${id}`]]),
      ['file share content', `/api/share/${ids.file}/content`],
      ['paste share content', `/api/share/${ids.paste}/content`],
      ['file', `/api/file/${fileId}`, through(ids.file)],
      ['file content', `/api/file/${fileId}/content`, through(ids.file)],
      ['folder', `/api/folder/${folder.id}`, through(ids.folder)],
      ['file in folder', `/api/file/${inner}`, through(ids.folder)],
      ['file content in folder', `/api/file/${inner}/content`, through(ids.folder)],
      ['collection', `/api/collection/${col.id}`, through(ids.collection)],
      ['file in collection', `/api/file/${fileId}`, through(ids.collection)],
      ['file content in collection', `/api/file/${fileId}/content`, through(ids.collection)],
      ['paste', `/api/paste/${paste.id}`, through(ids.paste)],
    ];
    /** Every path, or every one but GET /api/share/{id} (the only read that counts a view). */
    const readAll = async (views = true) => {
      const out: Array<[string, Reply]> = [];
      for (const [what, path, opts] of paths) {
        if (views || !what.startsWith('share ')) out.push([what, await t.request('GET', path, opts)]);
      }
      return out;
    };
    return { ids, readAll };
  }

  it('past expiresAt answers every public read with 410; the owner lists, patches and deletes it', async () => {
    const { ids, readAll } = await everyPath({ expiresAt: later(HOUR) });
    for (const [what, res] of await readAll()) expect(res.status, what).toBe(200);

    t.clock.advance(HOUR);
    for (const [what, res] of await readAll()) expectGone(res, what);
    for (const id of Object.values(ids)) {
      expect(await listed(id)).toMatchObject({ state: 'expired', expiresAt: later(0) });
      // The owner's own session still reads it, as it reads the item itself.
      expect((await t.request('GET', `/api/share/${id}`, { token: alice })).body.state).toBe('expired');
    }

    for (const id of Object.values(ids)) {
      const lifted = await patch(id, { expiresAt: null });
      expect(lifted.status).toBe(200);
      expect(lifted.body).toMatchObject({ expiresAt: null, state: 'active' });
    }
    for (const [what, res] of await readAll()) expect(res.status, what).toBe(200);

    expect((await patch(ids.file, { expiresAt: later(-1) })).body.state).toBe('expired');
    expectGone(await t.request('GET', `/api/share/${ids.file}`), 'expired again');
    expect((await t.request('DELETE', `/api/share/${ids.file}`, { token: alice })).status).toBe(204);
    expect((await t.request('GET', `/api/share/${ids.file}`)).status).toBe(404);
  });

  it('once maxViews is reached answers every public read with 410, until the owner raises it', async () => {
    const { ids, readAll } = await everyPath({ maxViews: 1 });
    // Reads other than GET /api/share/{id} count no view: everything still opens, repeatedly.
    for (let round = 0; round < 2; round++) {
      for (const [what, res] of await readAll(false)) expect(res.status, what).toBe(200);
    }
    for (const id of Object.values(ids)) expect((await t.request('GET', `/api/share/${id}`)).status).toBe(200);
    for (const [what, res] of await readAll()) expectGone(res, what);
    for (const id of Object.values(ids)) expect(await listed(id)).toMatchObject({ views: 1, state: 'exhausted' });

    for (const id of Object.values(ids)) expect((await patch(id, { maxViews: 2 })).body.state).toBe('active');
    expect((await t.request('GET', `/api/share/${ids.folder}`)).body).toMatchObject({ views: 2, state: 'exhausted' });
    expect((await patch(ids.folder, { maxViews: null })).body).toMatchObject({ maxViews: null, state: 'active' });
    expect((await t.request('GET', `/api/share/${ids.folder}`)).body.views).toBe(3);
  });

  it('once maxDownloads is reached refuses the share and its metadata too', async () => {
    const { id } = (await share({ type: 'file', id: fileId, maxDownloads: 1 })).body;
    expect((await t.request('GET', `/api/share/${id}/content`)).status).toBe(200);
    expectGone(await t.request('GET', `/api/share/${id}`), 'share');
    expectGone(await t.request('GET', `/api/file/${fileId}`, { headers: { 'x-share-id': id } }), 'file');
    expect((await t.request('HEAD', `/api/share/${id}/content`)).status).toBe(410);
  });
});

describe('creating and changing limits', () => {
  it('stores what POST sets and shows it; PATCH changes only what it names, null clears', async () => {
    const expiresAt = later(24 * HOUR);
    const created = await share({ type: 'file', id: fileId, expiresAt, maxViews: 5, maxDownloads: 2 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ expiresAt, maxViews: 5, maxDownloads: 2, views: 0, downloads: 0 });
    const id: string = created.body.id;
    const offset = await patch(id, { expiresAt: '2027-01-01T12:00:00+02:00' });
    expect(offset.body).toMatchObject({ expiresAt: '2027-01-01T10:00:00.000Z', maxViews: 5, maxDownloads: 2 });
    const cleared = await patch(id, { maxViews: null, password: 'pass-word' });
    expect(cleared.body).toMatchObject({ maxViews: null, maxDownloads: 2, protected: true });
    expect((await patch(id, { maxDownloads: 7 })).body).toMatchObject({ maxDownloads: 7, protected: true });
    expect(await listed(id)).toMatchObject({ expiresAt: '2027-01-01T10:00:00.000Z', maxViews: null, maxDownloads: 7 });
  });

  it('refuses a past expiry on create, maxima below 1 or not whole, and values of the wrong type', async () => {
    const bad: Array<Record<string, unknown>> = [
      { expiresAt: later(-1000) },
      { expiresAt: later(0) },
      { expiresAt: 'tomorrow' },
      { expiresAt: '2027-01-01T12:00:00' },
      { expiresAt: '2027-01-01' },
      { expiresAt: '2027-02-30T12:00:00Z' },
      { expiresAt: 1893456000000 },
      ...['maxViews', 'maxDownloads'].flatMap((field) =>
        [0, -1, 1.5, '3', true, {}, 2 ** 53].map((value) => ({ [field]: value })),
      ),
    ];
    for (const options of bad) {
      const res = await share({ type: 'file', id: fileId, ...options });
      expect(res.status, JSON.stringify(options)).toBe(400);
      expect(res.body.error).toBe('bad_request');
      expect(JSON.stringify(res.body), JSON.stringify(options)).toContain(Object.keys(options)[0]!);
    }
    expect((await t.request('GET', '/api/share', { token: alice })).body).toEqual([]);

    const { id } = (await share({ type: 'file', id: fileId })).body;
    for (const options of bad.slice(2)) {
      expect((await patch(id, options)).status, JSON.stringify(options)).toBe(400);
    }
    expect(await listed(id)).toMatchObject({ expiresAt: null, maxViews: null, maxDownloads: null });
  });

  it('answers a second share of an item with 409 naming the existing shareId', async () => {
    const first = (await share({ type: 'file', id: fileId, maxViews: 3 })).body;
    const again = await share({ type: 'file', id: fileId, password: 'other-pass' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'conflict', shareId: first.id });
    expect((await t.request('GET', '/api/share', { token: alice })).body).toHaveLength(1);
  });
});
