import { afterEach, describe, expect, it } from 'vitest';
import { ZERO_USAGE } from '../../src/domain/index.js';
import { bytes, makeCore, signUp } from '../support/core.js';
import { makeHttp, type HttpTest, type Reply } from '../support/http.js';

const ROOM = 5;
const ATTEMPTS = 20;

let t: HttpTest;
afterEach(async () => {
  const current = t as HttpTest | undefined;
  t = undefined as unknown as HttpTest;
  await current?.close();
});

function expectExactlyRoom(replies: Reply[], limit: string): void {
  const created = replies.filter((r) => r.status === 201);
  const refused = replies.filter((r) => r.status !== 201);
  expect(created, limit).toHaveLength(ROOM);
  for (const r of refused) expect(r.body, limit).toMatchObject({ error: 'limit_reached', limit });
}

async function usageOf(token: string) {
  return (await t.request('GET', '/api/usage/stats', { token })).body;
}

describe(`${ATTEMPTS} parallel creates with room for ${ROOM}`, () => {
  it('storage: exactly 5 uploads fit, and current is the bytes that exist', async () => {
    t = await makeHttp({ limits: { storage: ROOM * 1000 } });
    const token = await t.userToken('alice');
    const replies = await Promise.all(
      Array.from({ length: ATTEMPTS }, (_, i) => t.upload(token, Buffer.alloc(1000, i), { filename: `${i}.bin` })),
    );
    expectExactlyRoom(replies, 'storage');
    const files = (await t.request('GET', '/api/folder', { token })).body.files;
    const stored = files.reduce((sum: number, f: { size: string }) => sum + Number(f.size), 0);
    expect((await usageOf(token)).storage).toEqual({ current: String(stored), max: String(ROOM * 1000) });
    expect(stored).toBe(ROOM * 1000);
  });

  it('files', async () => {
    t = await makeHttp({ limits: { files: ROOM } });
    const token = await t.userToken('alice');
    expectExactlyRoom(await Promise.all(Array.from({ length: ATTEMPTS }, () => t.upload(token, 'x'))), 'files');
    expect((await t.request('GET', '/api/folder', { token })).body.files).toHaveLength(ROOM);
    expect((await usageOf(token)).files).toEqual({ current: ROOM, max: ROOM });
  });

  it('folders', async () => {
    t = await makeHttp({ limits: { folders: ROOM } });
    const token = await t.userToken('alice');
    const replies = await Promise.all(
      Array.from({ length: ATTEMPTS }, (_, i) => t.request('POST', '/api/folder', { token, json: { name: `f${i}` } })),
    );
    expectExactlyRoom(replies, 'folders');
    expect((await t.request('GET', '/api/folder', { token })).body.folders).toHaveLength(ROOM);
    expect((await usageOf(token)).folders).toEqual({ current: ROOM, max: ROOM });
  });

  it('pastes', async () => {
    t = await makeHttp({ limits: { pastes: ROOM } });
    const token = await t.userToken('alice');
    const replies = await Promise.all(
      Array.from({ length: ATTEMPTS }, () => t.request('POST', '/api/paste', { token, json: { content: 'p' } })),
    );
    expectExactlyRoom(replies, 'pastes');
    expect((await t.request('GET', '/api/paste', { token })).body).toHaveLength(ROOM);
    const usage = await usageOf(token);
    expect(usage.pastes).toEqual({ current: ROOM, max: ROOM });
    expect(usage.storage.current).toBe(String(ROOM));
  });

  it('collections', async () => {
    t = await makeHttp({ limits: { collections: ROOM } });
    const token = await t.userToken('alice');
    const replies = await Promise.all(
      Array.from({ length: ATTEMPTS }, (_, i) => t.request('POST', '/api/collection', { token, json: { name: `c${i}` } })),
    );
    expectExactlyRoom(replies, 'collections');
    expect((await t.request('GET', '/api/collection', { token })).body).toHaveLength(ROOM);
    expect((await usageOf(token)).collections).toEqual({ current: ROOM, max: ROOM });
  });

  it('shares', async () => {
    t = await makeHttp({ limits: { shares: ROOM } });
    const token = await t.userToken('alice');
    const folders = [];
    for (let i = 0; i < ATTEMPTS; i++) {
      folders.push((await t.request('POST', '/api/folder', { token, json: { name: `f${i}` } })).body.id);
    }
    const replies = await Promise.all(
      folders.map((id) => t.request('POST', '/api/share', { token, json: { type: 'folder', id } })),
    );
    expectExactlyRoom(replies, 'shares');
    expect((await t.request('GET', '/api/share', { token })).body).toHaveLength(ROOM);
    expect((await usageOf(token)).shares).toEqual({ current: ROOM, max: ROOM });
  });

  it('tokens', async () => {
    t = await makeHttp({ limits: { tokens: ROOM } });
    const token = await t.userToken('alice');
    const replies = await Promise.all(
      Array.from({ length: ATTEMPTS }, (_, i) => t.request('POST', '/api/token', { token, json: { name: `t${i}` } })),
    );
    expectExactlyRoom(replies, 'tokens');
    expect((await t.request('GET', '/api/token', { token })).body).toHaveLength(ROOM);
    expect((await usageOf(token)).tokens).toEqual({ current: ROOM, max: ROOM });
  });
});

describe('parallel deletes of the same item', () => {
  it('release its counts exactly once, on every kind', async () => {
    t = await makeHttp();
    const token = await t.userToken('alice');
    const file = await t.upload(token, 'x'.repeat(100));
    const folder = await t.request('POST', '/api/folder', { token, json: { name: 'f' } });
    const paste = await t.request('POST', '/api/paste', { token, json: { content: 'y'.repeat(10) } });
    const collection = await t.request('POST', '/api/collection', { token, json: { name: 'c' } });
    const share = await t.request('POST', '/api/share', { token, json: { type: 'folder', id: folder.body.id } });
    const api = await t.request('POST', '/api/token', { token, json: { name: 'k' } });
    const targets = [
      `/api/share/${share.body.id}`,
      `/api/file/${file.body.id}`,
      `/api/folder/${folder.body.id}`,
      `/api/paste/${paste.body.id}`,
      `/api/collection/${collection.body.id}`,
      `/api/token/${api.body.id}`,
    ];
    for (const path of targets) {
      const replies = await Promise.all(Array.from({ length: ATTEMPTS }, () => t.request('DELETE', path, { token })));
      expect(replies.filter((r) => r.status === 204), path).toHaveLength(1);
      expect(replies.filter((r) => r.status === 404), path).toHaveLength(ATTEMPTS - 1);
    }
    const usage = await usageOf(token);
    for (const kind of ['files', 'folders', 'pastes', 'collections', 'shares', 'tokens']) {
      expect(usage[kind].current, kind).toBe(0);
    }
    expect(usage.storage.current).toBe('0');
  });

  it('a folder cascade racing deletes of the files inside it counts each file once', async () => {
    t = await makeHttp();
    const token = await t.userToken('alice');
    const folder = await t.request('POST', '/api/folder', { token, json: { name: 'f' } });
    const files = await Promise.all(
      Array.from({ length: 10 }, () => t.upload(token, 'abc', { folderId: folder.body.id })),
    );
    await t.upload(token, 'kept');
    await Promise.all([
      t.request('DELETE', `/api/folder/${folder.body.id}`, { token }),
      ...files.map((f) => t.request('DELETE', `/api/file/${f.body.id}`, { token })),
    ]);
    expect(await usageOf(token)).toMatchObject({ files: { current: 1 }, storage: { current: '4' } });
  });
});

describe('counters never go negative', () => {
  it('when the counters were lost, deleting through the use cases floors them at zero', async () => {
    const ctx = makeCore();
    const alice = await signUp(ctx, 'alice');
    const { actor, userId } = alice;
    const file = await ctx.core.uploadFile.execute({
      actor,
      folderId: null,
      name: null,
      filename: 'a.txt',
      mime: 'text/plain',
      content: bytes('12345'),
    });
    const folder = await ctx.core.createFolder.execute({ actor, name: 'f', parentId: null });
    const paste = await ctx.core.createPaste.execute({ actor, content: 'abc' });
    const collection = await ctx.core.createCollection.execute({ actor, name: 'c' });
    const share = await ctx.core.createShare.execute({ actor, type: 'folder', id: folder.id, password: null });
    const token = await ctx.core.createApiToken.execute({ actor, name: 'k' });
    // A counter store restored from an older backup, or wiped by hand: it knows nothing of what exists.
    await ctx.ports.usage.set(userId, { ...ZERO_USAGE });

    await ctx.core.deleteShare.execute({ actor, id: share.id });
    await ctx.core.deleteFile.execute({ actor, id: file.id });
    await ctx.core.deleteFolder.execute({ actor, id: folder.id });
    await ctx.core.deletePaste.execute({ actor, id: paste.id });
    await ctx.core.deleteCollection.execute({ actor, id: collection.id });
    await ctx.core.deleteApiToken.execute({ actor, id: token.id });
    expect(await ctx.ports.usage.get(userId)).toEqual(ZERO_USAGE);
  });
});
