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

  it('holds the whole tree, bytes for bytes, stored, with an exact Content-Length, and counts one download', async () => {
    const root = await folder('Holiday');
    const sub = await folder('Day 1', root);
    const deeper = await folder('Evening', sub);
    await folder('Empty', root);
    const files = new Map<string, Buffer>([
      ['notes.txt', Buffer.from('top level')],
      ['Day 1/photo.bin', randomBytes(300_000)],
      ['Day 1/Evening/clip.bin', randomBytes(70_000)],
    ]);
    await upload(files.get('notes.txt')!, 'notes.txt', root);
    await upload(files.get('Day 1/photo.bin')!, 'photo.bin', sub);
    await upload(files.get('Day 1/Evening/clip.bin')!, 'clip.bin', deeper);
    const id = await share('folder', root);

    const res = await t.request('GET', `/s/${id}/archive`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="Holiday.zip"');
    expect(Number(res.headers.get('content-length'))).toBe(res.bytes.length);
    const entries = readZip(res.bytes);
    const byName = new Map(entries.map((entry) => [entry.name, entry]));
    expect([...byName.keys()].sort()).toEqual([
      'Day 1/',
      'Day 1/Evening/',
      'Day 1/Evening/clip.bin',
      'Day 1/photo.bin',
      'Empty/',
      'notes.txt',
    ]);
    for (const [path, bytes] of files) {
      expect(byName.get(path)!.method).toBe(0);
      expect(byName.get(path)!.bytes.equals(bytes)).toBe(true);
    }
    expect(await counts(id)).toEqual({ views: 0, downloads: 1 });
  });

  it('a collection: its files side by side, a repeated name made unique', async () => {
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
      ['other', 'third'],
      ['same (2).txt', 'second'],
      ['same.txt', 'first'],
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
