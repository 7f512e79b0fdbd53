import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, type Backend } from '../support/backends.js';
import { shareCounts } from '../support/share-counts.js';
import { readZip } from '../support/zip-reader.js';

describe.each(await backends())('a shared folder or collection as one .zip (%s)', (_, make) => {
  let t: Backend;
  let token: string;
  beforeAll(async () => {
    t = await make();
    token = await t.userToken('alice');
  });
  afterAll(() => t.close());

  async function folder(name: string, parentId: string | null = null): Promise<string> {
    const res = await t.request('POST', '/api/folder', { token, json: { name, parentId } });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  async function upload(bytes: Uint8Array | string, filename: string, folderId?: string): Promise<string> {
    const body = new FormData();
    if (folderId) body.append('folderId', folderId);
    const content = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    body.append('file', new Blob([new Uint8Array(content)], { type: 'application/octet-stream' }), filename);
    const res = await t.request('POST', '/api/file', { token, body });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  async function share(type: string, id: string, options = {}): Promise<string> {
    const res = await t.request('POST', '/api/share', { token, json: { type, id, ...options } });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  const counts = (id: string) => shareCounts(t.request, token, id);

  it('holds the whole tree under one directory named after the folder, bytes for bytes, stored, exact length', async () => {
    const root = await folder('Holiday');
    const sub = await folder('Day 1', root);
    const deeper = await folder('Evening', sub);
    await folder('Empty', root);
    const files = new Map<string, Buffer>([
      ['Holiday/notes.txt', Buffer.from('top level')],
      ['Holiday/Day 1/photo.bin', randomBytes(300_000)],
      ['Holiday/Day 1/Evening/clip.bin', randomBytes(70_000)],
    ]);
    await upload(files.get('Holiday/notes.txt')!, 'notes.txt', root);
    await upload(files.get('Holiday/Day 1/photo.bin')!, 'photo.bin', sub);
    await upload(files.get('Holiday/Day 1/Evening/clip.bin')!, 'clip.bin', deeper);
    const id = await share('folder', root);

    const res = await t.request('GET', `/s/${id}/archive`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="Holiday.zip"');
    expect(Number(res.headers.get('content-length'))).toBe(res.bytes.length);
    const entries = readZip(res.bytes);
    const byName = new Map(entries.map((entry) => [entry.name, entry]));
    expect([...byName.keys()].sort()).toEqual([
      'Holiday/',
      'Holiday/Day 1/',
      'Holiday/Day 1/Evening/',
      'Holiday/Day 1/Evening/clip.bin',
      'Holiday/Day 1/photo.bin',
      'Holiday/Empty/',
      'Holiday/notes.txt',
    ]);
    for (const [path, bytes] of files) {
      expect(byName.get(path)!.method).toBe(0);
      expect(byName.get(path)!.bytes.equals(bytes)).toBe(true);
    }
    expect(await counts(id)).toEqual({ views: 0, downloads: 1 });
  });

  it('one folder of a folder share: its subtree under a directory of its name, counted as one download', async () => {
    const root = await folder('Trip');
    const sub = await folder('Day 1', root);
    const deeper = await folder('Evening', sub);
    await folder('Empty', sub);
    await upload('top level', 'notes.txt', root);
    const photo = randomBytes(200_000);
    await upload(photo, 'photo.bin', sub);
    await upload('night', 'clip.txt', deeper);
    const id = await share('folder', root, { maxDownloads: 3 });

    const res = await t.request('GET', `/s/${id}/folders/${sub}/archive`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="Day 1.zip"');
    expect(Number(res.headers.get('content-length'))).toBe(res.bytes.length);
    const entries = new Map(readZip(res.bytes).map((entry) => [entry.name, entry.bytes]));
    expect([...entries.keys()].sort()).toEqual([
      'Day 1/',
      'Day 1/Empty/',
      'Day 1/Evening/',
      'Day 1/Evening/clip.txt',
      'Day 1/photo.bin',
    ]);
    expect(entries.get('Day 1/photo.bin')!.equals(photo)).toBe(true);
    expect(entries.get('Day 1/Evening/clip.txt')!.toString()).toBe('night');
    expect(await counts(id)).toEqual({ views: 0, downloads: 1 });

    // Any depth; and the shared folder's own id is the whole share, named after it.
    const evening = readZip((await t.request('GET', `/s/${id}/folders/${deeper}/archive`)).bytes);
    expect(evening.map((e) => e.name).sort()).toEqual(['Evening/', 'Evening/clip.txt']);
    const whole = await t.request('GET', `/s/${id}/folders/${root}/archive`);
    expect(whole.headers.get('content-disposition')).toBe('attachment; filename="Trip.zip"');
    expect(readZip(whole.bytes).map((e) => e.name)).toContain('Trip/Day 1/Evening/clip.txt');
    // The share's download maximum holds across both kinds of archive.
    expect(await counts(id)).toEqual({ views: 0, downloads: 3 });
    expect((await t.request('GET', `/s/${id}/folders/${sub}/archive`)).status).toBe(410);
    expect((await t.request('GET', `/s/${id}/archive`)).status).toBe(410);
  });

  it('refuses a folder the share does not reach with 404 and counts nothing', async () => {
    const parent = await folder('Parent');
    const root = await folder('Shared', parent);
    const sibling = await folder('Sibling', parent);
    await upload('x', 'x.txt', root);
    const id = await share('folder', root);
    const bob = await t.userToken('bob');
    const foreign = (await t.request('POST', '/api/folder', { token: bob, json: { name: 'Bobs' } })).body.id as string;
    for (const outside of [parent, sibling, foreign, 'AAAAAAAAAAAAAAAAAAAAAA']) {
      const res = await t.request('GET', `/s/${id}/folders/${outside}/archive`);
      expect(res.status, outside).toBe(404);
      expect(res.body).toMatchObject({ error: 'not_found' });
    }
    expect((await t.request('GET', `/s/${id}/folders/${'x'.repeat(300)}/archive`)).status).toBe(400);
    expect(await counts(id)).toEqual({ views: 0, downloads: 0 });

    // Not a folder share: no folder of it has an archive of its own.
    const collection = await t.request('POST', '/api/collection', { token, json: { name: 'C' } });
    const byCollection = await share('collection', collection.body.id);
    const byFile = await share('file', await upload('y', 'y.txt', root));
    for (const other of [byCollection, byFile]) {
      expect((await t.request('GET', `/s/${other}/folders/${root}/archive`)).status).toBe(404);
      expect(await counts(other)).toEqual({ views: 0, downloads: 0 });
    }
  });

  it("a protected share's folder archive wants its grant, as the whole archive does", async () => {
    const root = await folder('Vault');
    const sub = await folder('Inner', root);
    await upload('kept', 'kept.txt', sub);
    const id = await share('folder', root, { password: 'let me in' });
    expect((await t.request('GET', `/s/${id}/folders/${sub}/archive`)).status).toBe(401);
    const unlocked = await t.request('POST', `/s/${id}/unlock`, { json: { password: 'let me in' } });
    const cookie = unlocked.headers.get('set-cookie')!.split(';')[0]!;
    const res = await t.request('GET', `/s/${id}/folders/${sub}/archive`, { headers: { Cookie: cookie } });
    expect(res.status).toBe(200);
    expect(readZip(res.bytes).map((e) => [e.name, e.bytes.toString()])).toEqual([
      ['Inner/', ''],
      ['Inner/kept.txt', 'kept'],
    ]);
    expect(await counts(id)).toEqual({ views: 1, downloads: 1 });
  });

  it('a collection: its files side by side in one directory named after it, a repeated name made unique', async () => {
    const a = await upload('first', 'same.txt');
    const b = await upload('second', 'same.txt');
    const c = await upload('third', 'other');
    const collection = await t.request('POST', '/api/collection', { token, json: { name: 'Mixed' } });
    for (const fileId of [a, b, c]) {
      await t.request('PUT', `/api/collection/${collection.body.id}/file/${fileId}`, { token });
    }
    const id = await share('collection', collection.body.id);
    const entries = readZip((await t.request('GET', `/s/${id}/archive`)).bytes);
    expect(entries.map((e) => [e.name, e.bytes.toString()]).sort()).toEqual([
      ['Mixed/', ''],
      ['Mixed/other', 'third'],
      ['Mixed/same (2).txt', 'second'],
      ['Mixed/same.txt', 'first'],
    ]);
  });

  it('is refused before a byte when the share is used up, protected without a grant, or a single file', async () => {
    const root = await folder('Once');
    await upload('x', 'x.txt', root);
    const once = await share('folder', root, { maxDownloads: 1 });
    expect((await t.request('GET', `/s/${once}/archive`)).status).toBe(200);
    expect((await t.request('GET', `/s/${once}/archive`)).status).toBe(410);

    const locked = await share('folder', await folder('Locked'), { password: 'let me in' });
    expect((await t.request('GET', `/s/${locked}/archive`)).status).toBe(401);
    const unlocked = await t.request('POST', `/s/${locked}/unlock`, { json: { password: 'let me in' } });
    const cookie = unlocked.headers.get('set-cookie')!.split(';')[0]!;
    expect((await t.request('GET', `/s/${locked}/archive`, { headers: { Cookie: cookie } })).status).toBe(200);
    expect(await counts(locked)).toEqual({ views: 1, downloads: 1 });

    const single = await share('file', await upload('y', 'y.txt'));
    const refused = await t.request('GET', `/s/${single}/archive`);
    expect(refused.status).toBe(400);
    expect(await counts(single)).toEqual({ views: 0, downloads: 0 });
  });

  it('a folder share lists and serves the files below it through the page routes, and nothing outside it', async () => {
    const outside = await upload('outside', 'outside.txt');
    const root = await folder('Inside');
    const sub = await folder('Sub', root);
    const inner = await upload('inner bytes', 'inner.txt', sub);
    const id = await share('folder', root);
    const tree = await t.request('GET', `/s/${id}/folders/${root}`);
    expect(tree.status).toBe(200);
    expect(tree.body.folders[0].files[0]).toMatchObject({ id: inner, name: 'inner.txt' });
    expect((await t.request('GET', `/s/${id}/files/${inner}`)).text).toBe('inner bytes');
    expect((await t.request('GET', `/s/${id}/files/${outside}`)).status).toBe(404);
    expect(await counts(id)).toEqual({ views: 0, downloads: 1 });
  });
});
