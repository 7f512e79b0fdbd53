import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';

let t: HttpTest;
let alice: string;
afterEach(() => t.close());
beforeEach(async () => {
  t = await makeHttp();
  alice = await t.userToken('alice');
});

const create = (json: unknown, token = alice) => t.request('POST', '/api/paste', { token, json });

describe('pastes', () => {
  it('POST answers 201 with a default name and type, size as a string, bytes counted as storage', async () => {
    const res = await create({ content: 'héllo' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: 'text', content: 'héllo', size: '6', shareId: null });
    expect(typeof res.body.name).toBe('string');
    const usage = (await t.request('GET', '/api/usage/stats', { token: alice })).body;
    expect(usage).toMatchObject({ storage: { current: '6' }, pastes: { current: 1 } });
  });

  it('POST answers 400 without content or with wrong types', async () => {
    for (const json of [{}, { content: 5 }, { content: 'x', name: 1 }, { content: 'x', type: false }]) {
      expect((await create(json)).status, JSON.stringify(json)).toBe(400);
    }
  });

  it('an API token may create a paste but not list or read it', async () => {
    const api = (await t.request('POST', '/api/token', { token: alice, json: { name: 'ci' } })).body.token;
    const res = await create({ name: 'log', type: 'markdown', content: '# hi' }, api);
    expect(res.status).toBe(201);
    expect(res.body.type).toBe('markdown');
    expect((await t.request('GET', '/api/paste', { token: api })).status).toBe(403);
    expect((await t.request('GET', `/api/paste/${res.body.id}`, { token: api })).status).toBe(403);
  });

  it('GET, PATCH and DELETE work for the owner and answer 404 for anyone else', async () => {
    const bob = await t.userToken('bob');
    const id = (await create({ name: 'notes', content: 'one' })).body.id;
    expect((await t.request('GET', '/api/paste', { token: alice })).body).toHaveLength(1);
    expect((await t.request('GET', '/api/paste', { token: bob })).body).toEqual([]);
    expect((await t.request('GET', `/api/paste/${id}`, { token: alice })).body.content).toBe('one');
    expect((await t.request('GET', `/api/paste/${id}`, { token: bob })).status).toBe(404);
    expect((await t.request('GET', `/api/paste/${id}`)).status).toBe(401);
    const updated = await t.request('PATCH', `/api/paste/${id}`, { token: alice, json: { content: 'three' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ content: 'three', size: '5', name: 'notes' });
    expect((await t.request('PATCH', `/api/paste/${id}`, { token: alice, json: { content: 3 } })).status).toBe(400);
    expect((await t.request('PATCH', `/api/paste/${id}`, { token: bob, json: { content: 'x' } })).status).toBe(404);
    expect((await t.request('DELETE', `/api/paste/${id}`, { token: bob })).status).toBe(404);
    expect((await t.request('DELETE', `/api/paste/${id}`, { token: alice })).status).toBe(204);
    expect((await t.request('GET', `/api/paste/${id}`, { token: alice })).status).toBe(404);
    expect((await t.request('GET', '/api/usage/stats', { token: alice })).body.storage.current).toBe('0');
  });

  it('a paste is readable through its share link', async () => {
    const id = (await create({ content: 'shared' })).body.id;
    const shareId = (await t.request('POST', '/api/share', { token: alice, json: { type: 'paste', id } })).body.id;
    const res = await t.request('GET', `/api/paste/${id}`, { headers: { 'x-share-id': shareId } });
    expect(res.status).toBe(200);
    expect(res.body.content).toBe('shared');
  });

  it('a content over the 1 MiB JSON cap answers 413', async () => {
    const res = await create({ content: 'x'.repeat(1024 * 1024 + 1) });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('payload_too_large');
  });
});
