import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';

let t: HttpTest;
let alice: string;
let bob: string;
afterEach(() => t.close());
beforeEach(async () => {
  t = await makeHttp();
  alice = await t.userToken('alice');
  bob = await t.userToken('bob');
});

const create = (name: unknown, token = alice) => t.request('POST', '/api/collection', { token, json: { name } });

describe('collections', () => {
  it('POST answers 201 with an empty Collection, count an integer', async () => {
    const res = await create('trip');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'trip', files: [], count: 0, shareId: null });
    expect(res.body.createdAt).toMatch(/Z$/);
  });

  it('POST answers 400 without a string name, 401 without a token', async () => {
    expect((await create(undefined)).status).toBe(400);
    expect((await create(12)).status).toBe(400);
    expect((await create('')).status).toBe(400);
    expect((await t.request('POST', '/api/collection', { json: { name: 'x' } })).status).toBe(401);
  });

  it('GET lists the caller collections, GET {id} reads one, PATCH renames, DELETE removes', async () => {
    const id = (await create('trip')).body.id;
    await create('other', bob);
    const list = await t.request('GET', '/api/collection', { token: alice });
    expect(list.status).toBe(200);
    expect(list.body.map((c: { id: string }) => c.id)).toEqual([id]);
    expect((await t.request('GET', `/api/collection/${id}`, { token: alice })).body.name).toBe('trip');
    const renamed = await t.request('PATCH', `/api/collection/${id}`, { token: alice, json: { name: 'voyage' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('voyage');
    expect((await t.request('PATCH', `/api/collection/${id}`, { token: alice, json: { name: [] } })).status).toBe(400);
    expect((await t.request('DELETE', `/api/collection/${id}`, { token: alice })).status).toBe(204);
    expect((await t.request('GET', `/api/collection/${id}`, { token: alice })).status).toBe(404);
  });

  it('another user gets 404 on every route', async () => {
    const id = (await create('trip')).body.id;
    const fileId = (await t.upload(alice, 'x')).body.id;
    const bobFile = (await t.upload(bob, 'y')).body.id;
    expect((await t.request('GET', `/api/collection/${id}`, { token: bob })).status).toBe(404);
    expect((await t.request('PATCH', `/api/collection/${id}`, { token: bob, json: { name: 'x' } })).status).toBe(404);
    expect((await t.request('DELETE', `/api/collection/${id}`, { token: bob })).status).toBe(404);
    expect((await t.request('PUT', `/api/collection/${id}/file/${fileId}`, { token: bob })).status).toBe(404);
    // A collection holds only its owner's files.
    expect((await t.request('PUT', `/api/collection/${id}/file/${bobFile}`, { token: alice })).status).toBe(404);
    expect((await t.request('GET', `/api/collection/${id}`)).status).toBe(401);
  });

  it('PUT adds a file idempotently, DELETE removes it with 204, deleting the file removes it', async () => {
    const id = (await create('trip')).body.id;
    const fileId = (await t.upload(alice, 'x', { filename: 'x.txt' })).body.id;
    const added = await t.request('PUT', `/api/collection/${id}/file/${fileId}`, { token: alice });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ count: 1, files: [{ id: fileId, name: 'x.txt', size: '1' }] });
    const again = await t.request('PUT', `/api/collection/${id}/file/${fileId}`, { token: alice });
    expect(again.body.count).toBe(1);
    const removed = await t.request('DELETE', `/api/collection/${id}/file/${fileId}`, { token: alice });
    expect(removed.status).toBe(204);
    expect((await t.request('GET', `/api/collection/${id}`, { token: alice })).body.count).toBe(0);
    await t.request('PUT', `/api/collection/${id}/file/${fileId}`, { token: alice });
    await t.request('DELETE', `/api/file/${fileId}`, { token: alice });
    expect((await t.request('GET', `/api/collection/${id}`, { token: alice })).body).toMatchObject({ count: 0, files: [] });
  });

  it('an API token may not manage collections', async () => {
    const api = (await t.request('POST', '/api/token', { token: alice, json: { name: 'ci' } })).body.token;
    expect((await create('x', api)).status).toBe(403);
    expect((await t.request('GET', '/api/collection', { token: api })).status).toBe(403);
  });
});
