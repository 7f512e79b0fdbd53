import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';

let t: HttpTest;
let alice: string;
afterEach(() => t.close());
beforeEach(async () => {
  t = await makeHttp();
  alice = await t.userToken('alice');
});

const create = (json: unknown, token = alice) => t.request('POST', '/api/request', { token, json });

/** A multipart upload into a request, with no credential: the fields first, then the file. */
function send(id: string, content: string, o: { filename?: string; type?: string; uploaderName?: string; note?: string; password?: string } = {}) {
  const form = new FormData();
  if (o.uploaderName !== undefined) form.append('uploaderName', o.uploaderName);
  if (o.note !== undefined) form.append('note', o.note);
  form.append('file', new Blob([content], { type: o.type ?? 'text/plain' }), o.filename ?? 'hello.txt');
  const headers: Record<string, string> = o.password === undefined ? {} : { 'X-Request-Password': o.password };
  return t.request('POST', `/api/request/${id}/file`, { body: form, headers });
}

describe('file requests: the owner', () => {
  it('POST makes a request with a folder named after it, counted against requests', async () => {
    const res = await create({ name: 'Tax papers', message: 'Please send the PDFs', maxFiles: 3, maxBytes: '1000', maxFileBytes: '500', allowedTypes: ['application/pdf', '.PDF'], requireName: true, password: 'secret-1' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Tax papers', message: 'Please send the PDFs', protected: true, expiresAt: null, maxFiles: 3, maxBytes: '1000',
      maxFileBytes: '500', allowedTypes: ['application/pdf', '.pdf'], requireName: true, files: 0, bytes: '0', state: 'active',
    });
    expect(res.body.id).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(res.body.url).toBe(`${t.url}/r/${res.body.id}`);
    const folder = await t.request('GET', `/api/folder/${res.body.folderId}`, { token: alice });
    expect(folder.body.name).toBe('Tax papers');
    const usage = (await t.request('GET', '/api/usage/stats', { token: alice })).body;
    expect(usage.requests).toEqual({ current: 1, max: 10 });
    expect(usage.folders.current).toBe(1);
  });

  it('refuses bad options with 400, an API token with 403, and hides others\' requests (404)', async () => {
    for (const json of [{}, { name: '' }, { name: 'x', maxFiles: 0 }, { name: 'x', maxBytes: 5 }, { name: 'x', allowedTypes: ['pdf'] }, { name: 'x', expiresAt: '2000-01-01T00:00:00Z' }, { name: 'x', extra: 1 }]) {
      expect((await create(json)).status, JSON.stringify(json)).toBe(400);
    }
    const api = (await t.request('POST', '/api/token', { token: alice, json: { name: 'ci' } })).body.token;
    expect((await create({ name: 'x' }, api)).status).toBe(403);
    expect((await t.request('GET', '/api/request', { token: api })).status).toBe(403);
    const id = (await create({ name: 'mine' })).body.id;
    const bob = await t.userToken('bob');
    expect((await t.request('GET', `/api/request/${id}`, { token: bob })).status).toBe(404);
    expect((await t.request('PATCH', `/api/request/${id}`, { token: bob, json: { closed: true } })).status).toBe(404);
    expect((await t.request('DELETE', `/api/request/${id}`, { token: bob })).status).toBe(404);
    expect((await t.request('GET', `/api/request/${id}`)).status).toBe(401);
  });

  it('lists requests in pages, changes every field, closes and reopens, deletes (files stay)', async () => {
    const first = (await create({ name: 'one' })).body;
    t.clock.advance(1000);
    await create({ name: 'two' });
    const page = await t.request('GET', '/api/request?limit=1', { token: alice });
    expect(page.body.map((r: { name: string }) => r.name)).toEqual(['one']);
    expect(page.headers.get('link')).toContain('rel="next"');
    const folder = (await t.request('POST', '/api/folder', { token: alice, json: { name: 'Inbox' } })).body;
    const changed = await t.request('PATCH', `/api/request/${first.id}`, {
      token: alice,
      json: { name: 'renamed', message: 'hi', folderId: folder.id, password: 'pw-123456', expiresAt: '2099-01-01T00:00:00Z', maxFiles: 9, maxBytes: '99', maxFileBytes: '9', allowedTypes: ['image/*'], requireName: true, closed: true },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: 'renamed', folderId: folder.id, protected: true, state: 'closed', maxFiles: 9, allowedTypes: ['image/*'] });
    const reopened = await t.request('PATCH', `/api/request/${first.id}`, { token: alice, json: { closed: false, password: null } });
    expect(reopened.body).toMatchObject({ state: 'active', protected: false });
    expect((await send(first.id, 'x', { filename: 'a.png', type: 'image/png', uploaderName: 'Zoe' })).status).toBe(201);
    expect((await t.request('DELETE', `/api/request/${first.id}`, { token: alice })).status).toBe(204);
    expect((await t.request('GET', `/api/request/${first.id}`, { token: alice })).status).toBe(404);
    expect((await t.request('GET', `/api/request/${first.id}/public`)).status).toBe(404);
    const kept = (await t.request('GET', `/api/folder/${folder.id}`, { token: alice })).body.files;
    expect(kept).toHaveLength(1);
    expect((await t.request('GET', '/api/usage/stats', { token: alice })).body.requests.current).toBe(1);
  });

  it('holds the requests maximum exactly under parallel creates', async () => {
    const admin = await t.adminToken();
    const { userId } = await t.user('alice');
    await t.request('PATCH', `/api/admin/users/${userId}`, { token: admin, json: { limits: { requests: 3 } } });
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => create({ name: `r${i}` })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    const refused = results.find((r) => r.status === 403)!;
    expect(refused.body).toMatchObject({ error: 'limit_reached', limit: 'requests' });
    expect((await t.request('GET', '/api/usage/stats', { token: alice })).body.requests).toEqual({ current: 3, max: 3 });
  });
});

describe('file requests: the uploader', () => {
  it('reads what an open request asks for, and only the name and state of a protected one', async () => {
    const open = (await create({ name: 'open', maxFiles: 2, maxBytes: '100' })).body;
    const res = await t.request('GET', `/api/request/${open.id}/public`);
    expect(res.body).toEqual({ name: 'open', message: null, ownerName: 'alice', protected: false, requireName: false, maxFileBytes: null, allowedTypes: [], filesLeft: 2, bytesLeft: '100', state: 'active' });
    const locked = (await create({ name: 'locked', password: 'pass-word' })).body;
    expect((await t.request('GET', `/api/request/${locked.id}/public`)).body).toEqual({ name: 'locked', protected: true, state: 'active' });
    const wrong = await t.request('GET', `/api/request/${locked.id}/public`, { headers: { 'X-Request-Password': 'nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('share_password_invalid');
    const right = await t.request('GET', `/api/request/${locked.id}/public`, { headers: { 'X-Request-Password': 'pass-word' } });
    expect(right.body).toMatchObject({ ownerName: 'alice', protected: true });
    expect((await t.request('GET', '/api/request/AAAAAAAAAAAAAAAAAAAAAA/public')).status).toBe(404);
  });

  it('sends a file with no credential: 201 with only id, name and size; the owner sees who sent it, counted', async () => {
    const request = (await create({ name: 'inbox', requireName: true })).body;
    expect((await send(request.id, 'hello')).status).toBe(400);
    const res = await send(request.id, 'hello', { uploaderName: 'Zoe', note: 'from the trip' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['id', 'name', 'size']);
    expect(res.body).toMatchObject({ name: 'hello.txt', size: '5' });
    const file = (await t.request('GET', `/api/file/${res.body.id}`, { token: alice })).body;
    expect(file.folderId).toBe(request.folderId);
    expect(file.request).toMatchObject({ id: request.id, uploaderName: 'Zoe', note: 'from the trip' });
    expect(typeof file.request.receivedAt).toBe('string');
    expect((await t.upload(alice, 'own')).body.request).toBeNull();
    const usage = (await t.request('GET', '/api/usage/stats', { token: alice })).body;
    expect(usage.files.current).toBe(2);
    expect(usage.storage.current).toBe('8');
    expect((await t.request('GET', `/api/request/${request.id}`, { token: alice })).body).toMatchObject({ files: 1, bytes: '5' });
    // Same name again: kept beside the first, as any upload into a folder.
    expect((await send(request.id, 'hello2', { uploaderName: 'Zoe' })).status).toBe(201);
  });

  it('a protected request takes files with its password only', async () => {
    const request = (await create({ name: 'p', password: 'pass-word' })).body;
    expect((await send(request.id, 'x')).status).toBe(401);
    expect((await send(request.id, 'x', { password: 'bad' })).status).toBe(401);
    expect((await send(request.id, 'x', { password: 'pass-word' })).status).toBe(201);
  });

  it('refuses a type not allowed (415 naming the list), a file over maxFileBytes or the bytes left (413)', async () => {
    const request = (await create({ name: 'pics', allowedTypes: ['image/*', '.pdf'], maxFileBytes: '10', maxBytes: '11' })).body;
    const wrongType = await send(request.id, 'x', { filename: 'a.exe', type: 'application/x-msdownload' });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body).toMatchObject({ error: 'unsupported_media_type', allowedTypes: ['image/*', '.pdf'] });
    expect(wrongType.body.message).toContain('image/*, .pdf');
    // A false type on an allowed name, or an allowed type on a name that says otherwise.
    expect((await send(request.id, 'x', { filename: 'a.png', type: 'text/html' })).status).toBe(415);
    expect((await send(request.id, 'x', { filename: 'a.html', type: 'image/png' })).status).toBe(415);
    expect((await send(request.id, 'x', { filename: 'a.pdf', type: 'application/pdf' })).status).toBe(201);
    expect((await send(request.id, 'x', { filename: 'b.jpg', type: 'application/octet-stream' })).status).toBe(201);
    expect((await send(request.id, '0123456789A', { filename: 'big.png', type: 'image/png' })).status).toBe(413);
    const over = await send(request.id, '0123456789', { filename: 'c.png', type: 'image/png' });
    expect(over.status).toBe(413);
    expect(over.body.bytesLeft).toBe('9');
    const after = (await t.request('GET', `/api/request/${request.id}`, { token: alice })).body;
    expect(after).toMatchObject({ files: 2, bytes: '2' });
    expect((await t.request('GET', '/api/usage/stats', { token: alice })).body.files.current).toBe(2);
  });

  it('answers 410 when closed, expired or full', async () => {
    const request = (await create({ name: 'r', maxFiles: 1 })).body;
    expect((await send(request.id, 'x')).status).toBe(201);
    const full = await send(request.id, 'x');
    expect(full.status).toBe(410);
    expect(full.body.state).toBe('full');
    await t.request('PATCH', `/api/request/${request.id}`, { token: alice, json: { maxFiles: null, closed: true } });
    expect((await send(request.id, 'x')).body).toMatchObject({ error: 'gone', state: 'closed' });
    await t.request('PATCH', `/api/request/${request.id}`, { token: alice, json: { closed: false, expiresAt: '2000-01-01T00:00:00Z' } });
    expect((await send(request.id, 'x')).body).toMatchObject({ error: 'gone', state: 'expired' });
    expect((await t.request('GET', `/api/request/${request.id}/public`)).body.state).toBe('expired');
  });

  it('over the owner\'s room: 403 limit_reached without saying how much room the owner has', async () => {
    const admin = await t.adminToken();
    const { userId } = await t.user('alice');
    await t.request('PATCH', `/api/admin/users/${userId}`, { token: admin, json: { limits: { storage: '4' } } });
    const request = (await create({ name: 'r' })).body;
    const res = await send(request.id, 'too long');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'limit_reached', message: expect.any(String), limit: 'storage' });
    expect(res.body.message).not.toMatch(/\d/);
    expect((await t.request('GET', `/api/request/${request.id}`, { token: alice })).body).toMatchObject({ files: 0, bytes: '0' });
    const usage = (await t.request('GET', '/api/usage/stats', { token: alice })).body;
    expect(usage).toMatchObject({ files: { current: 0 }, storage: { current: '0' } });
  });

  it('20 parallel uploads into a request with room for 5 files give exactly 5', async () => {
    const request = (await create({ name: 'race', maxFiles: 5 })).body;
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => send(request.id, `file ${i}`)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 410 || s === 429)).toBe(true);
    expect((await t.request('GET', `/api/request/${request.id}`, { token: alice })).body).toMatchObject({ files: 5, state: 'full' });
    const folder = (await t.request('GET', `/api/folder/${request.folderId}`, { token: alice })).body;
    expect(folder.files).toHaveLength(5);
    expect((await t.request('GET', '/api/usage/stats', { token: alice })).body.files.current).toBe(5);
  });
});
