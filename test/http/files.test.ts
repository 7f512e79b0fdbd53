import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryBlobStore } from '../../src/adapters/memory-blob-store/memory-blob-store.js';
import { makeHttp, type HttpTest } from '../support/http.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let t: HttpTest;
let alice: string;
afterEach(() => t.close());
beforeEach(async () => {
  t = await makeHttp({ maxUploadBytes: 64 * 1024 });
  alice = await t.userToken('alice');
});

const blobCount = () => (t.ports.blobs as MemoryBlobStore).keys().length;
const usage = async (token: string) => (await t.request('GET', '/api/usage/stats', { token })).body;

describe('POST /api/file', () => {
  it('answers 201 with the File, every field typed as the spec says', async () => {
    const { userId } = await t.user('alice');
    const res = await t.upload(alice, 'hello world', { filename: 'hello.txt' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'hello.txt',
      mime: 'text/plain',
      size: '11',
      ownerId: userId,
      folderId: null,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
      shareId: null,
      request: null,
    });
    expect((await usage(alice)).storage.current).toBe('11');
  });

  it('takes the name and folderId fields sent before the file part', async () => {
    const folder = (await t.request('POST', '/api/folder', { token: alice, json: { name: 'docs' } })).body;
    const res = await t.upload(alice, 'x', { filename: 'a.txt', name: 'renamed.txt', folderId: folder.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'renamed.txt', folderId: folder.id });
  });

  it('answers 400 for a body that is not multipart/form-data', async () => {
    const json = await t.request('POST', '/api/file', { token: alice, json: { file: 'x' } });
    expect(json.status).toBe(400);
    expect(json.body.error).toBe('bad_request');
    const none = await t.request('POST', '/api/file', { token: alice });
    expect(none.status).toBe(400);
  });

  it('answers 400 for a form without a part named file', async () => {
    const form = new FormData();
    form.append('name', 'x.txt');
    form.append('other', new Blob(['data']), 'x.txt');
    const res = await t.request('POST', '/api/file', { token: alice, body: form });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/file/);
    expect(blobCount()).toBe(0);
  });

  it('answers 400 for a field after the file part and keeps nothing of the upload', async () => {
    const form = new FormData();
    form.append('file', new Blob(['data']), 'x.txt');
    form.append('name', 'late.txt');
    const res = await t.request('POST', '/api/file', { token: alice, body: form });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/before the file/);
    expect(blobCount()).toBe(0);
    expect(await usage(alice)).toMatchObject({ storage: { current: '0' }, files: { current: 0 } });
  });

  it('answers 400 for two files and for a malformed body', async () => {
    const form = new FormData();
    form.append('file', new Blob(['one']), 'a.txt');
    form.append('file', new Blob(['two']), 'b.txt');
    expect((await t.request('POST', '/api/file', { token: alice, body: form })).status).toBe(400);
    const broken = await t.request('POST', '/api/file', {
      token: alice,
      body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
    });
    expect(broken.status).toBe(400);
    expect(blobCount()).toBe(0);
  });

  it('answers 400 for a folderId over 128 characters and 404 for a foreign folder', async () => {
    const bob = await t.userToken('bob');
    const folder = (await t.request('POST', '/api/folder', { token: bob, json: { name: 'b' } })).body;
    expect((await t.upload(alice, 'x', { folderId: 'f'.repeat(129) })).status).toBe(400);
    const foreign = await t.upload(alice, 'x', { folderId: folder.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('not_found');
  });

  it('accepts exactly the upload limit and answers 413 one byte over, leaving nothing behind', async () => {
    const max = 64 * 1024;
    expect((await t.upload(alice, Buffer.alloc(max, 1))).status).toBe(201);
    const over = await t.upload(alice, Buffer.alloc(max + 1, 1));
    expect(over.status).toBe(413);
    expect(over.body.error).toBe('payload_too_large');
    const big = await t.upload(alice, Buffer.alloc(max * 8, 1));
    expect(big.status).toBe(413);
    expect(blobCount()).toBe(1);
    expect(await usage(alice)).toMatchObject({ storage: { current: String(max) }, files: { current: 1 } });
  });

  it('answers 401 without a token', async () => {
    const form = new FormData();
    form.append('file', new Blob(['x']), 'x.txt');
    const res = await t.request('POST', '/api/file', { body: form });
    expect(res.status).toBe(401);
  });
});

describe('GET, PATCH and DELETE /api/file/{id}', () => {
  let fileId: string;
  beforeEach(async () => {
    fileId = (await t.upload(alice, 'content', { filename: 'a.txt' })).body.id;
  });

  it('GET answers 200 with the file to its owner', async () => {
    const res = await t.request('GET', `/api/file/${fileId}`, { token: alice });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: fileId, name: 'a.txt', size: '7' });
  });

  it('answers 404 for another user and an unknown id, 401 without a token', async () => {
    const bob = await t.userToken('bob');
    for (const [method, path] of [
      ['GET', `/api/file/${fileId}`],
      ['GET', `/api/file/${fileId}/content`],
      ['DELETE', `/api/file/${fileId}`],
    ] as const) {
      const res = await t.request(method, path, { token: bob });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toBe('not_found');
    }
    const patch = await t.request('PATCH', `/api/file/${fileId}`, { token: bob, json: { name: 'x' } });
    expect(patch.status).toBe(404);
    expect((await t.request('GET', '/api/file/unknown', { token: alice })).status).toBe(404);
    expect((await t.request('GET', `/api/file/${fileId}`)).status).toBe(401);
    expect((await t.request('GET', `/api/file/${fileId}/content`)).status).toBe(401);
  });

  it('PATCH renames and moves, answering 200 with the File', async () => {
    const folder = (await t.request('POST', '/api/folder', { token: alice, json: { name: 'd' } })).body;
    const res = await t.request('PATCH', `/api/file/${fileId}`, {
      token: alice,
      json: { name: 'b.txt', folderId: folder.id },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: fileId, name: 'b.txt', folderId: folder.id });
    const back = await t.request('PATCH', `/api/file/${fileId}`, { token: alice, json: { folderId: null } });
    expect(back.body.folderId).toBeNull();
  });

  it('PATCH answers 400 on wrong types, an empty name and malformed JSON', async () => {
    for (const json of [{ name: 5 }, { folderId: 7 }, { name: '' }, { folderId: '' }]) {
      const res = await t.request('PATCH', `/api/file/${fileId}`, { token: alice, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
    }
    const res = await t.request('PATCH', `/api/file/${fileId}`, {
      token: alice,
      body: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
  });

  it('PATCH answers 413 for a JSON body over 1 MiB', async () => {
    const res = await t.request('PATCH', `/api/file/${fileId}`, {
      token: alice,
      json: { name: 'x'.repeat(1024 * 1024 + 10) },
    });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('payload_too_large');
  });

  it('DELETE answers 204, then the file, its bytes and its counts are gone', async () => {
    const res = await t.request('DELETE', `/api/file/${fileId}`, { token: alice });
    expect(res.status).toBe(204);
    expect((await t.request('GET', `/api/file/${fileId}`, { token: alice })).status).toBe(404);
    expect(blobCount()).toBe(0);
    expect(await usage(alice)).toMatchObject({ storage: { current: '0' }, files: { current: 0 } });
    expect((await t.request('DELETE', `/api/file/${fileId}`, { token: alice })).status).toBe(404);
  });
});
