import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHttp, type HttpTest } from '../support/http.js';

let t: HttpTest;
afterEach(() => t.close());
beforeEach(async () => {
  t = await makeHttp({
    limits: { storage: 10, files: 1, folders: 1, pastes: 1, collections: 1, shares: 1, tokens: 1 },
  });
});

async function expectLimit(res: Promise<{ status: number; body: any }>, limit: string): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const { status, body } = await res;
  expect(status, limit).toBe(403);
  expect(body).toMatchObject({ error: 'limit_reached', limit, message: expect.any(String) });
}

describe('each of the seven maxima answers 403 limit_reached naming it', () => {
  it('storage', async () => {
    const token = await t.userToken('s');
    await expectLimit(t.upload(token, '01234567890'), 'storage');
    await expectLimit(t.request('POST', '/api/paste', { token, json: { content: '01234567890' } }), 'storage');
    expect((await t.request('GET', '/api/usage/stats', { token })).body.storage.current).toBe('0');
  });

  it('files', async () => {
    const token = await t.userToken('f');
    expect((await t.upload(token, 'a')).status).toBe(201);
    await expectLimit(t.upload(token, 'b'), 'files');
  });

  it('folders', async () => {
    const token = await t.userToken('d');
    expect((await t.request('POST', '/api/folder', { token, json: { name: 'a' } })).status).toBe(201);
    await expectLimit(t.request('POST', '/api/folder', { token, json: { name: 'b' } }), 'folders');
  });

  it('pastes', async () => {
    const token = await t.userToken('p');
    expect((await t.request('POST', '/api/paste', { token, json: { content: 'a' } })).status).toBe(201);
    await expectLimit(t.request('POST', '/api/paste', { token, json: { content: 'b' } }), 'pastes');
  });

  it('collections', async () => {
    const token = await t.userToken('c');
    expect((await t.request('POST', '/api/collection', { token, json: { name: 'a' } })).status).toBe(201);
    await expectLimit(t.request('POST', '/api/collection', { token, json: { name: 'b' } }), 'collections');
  });

  it('shares', async () => {
    const token = await t.userToken('h');
    const a = (await t.request('POST', '/api/folder', { token, json: { name: 'a' } })).body.id;
    const b = (await t.request('POST', '/api/collection', { token, json: { name: 'b' } })).body.id;
    expect((await t.request('POST', '/api/share', { token, json: { type: 'folder', id: a } })).status).toBe(201);
    await expectLimit(t.request('POST', '/api/share', { token, json: { type: 'collection', id: b } }), 'shares');
  });

  it('tokens', async () => {
    const token = await t.userToken('k');
    expect((await t.request('POST', '/api/token', { token, json: { name: 'a' } })).status).toBe(201);
    await expectLimit(t.request('POST', '/api/token', { token, json: { name: 'b' } }), 'tokens');
  });
});
