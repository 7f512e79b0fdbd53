import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/application/index.js';
import { MAX_STORED_DEPTH, MAX_TREE_ENTRIES, type Actor, type Folder } from '../../src/domain/index.js';
import { MOVE_LEASE_MARGIN_MS, MOVE_LEASE_MS, MOVE_LEASE_WAIT_MS } from '../../src/application/folders/move-lease.js';
import { makeCore, signUp } from '../support/core.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { treeProblems } from '../support/tree-check.js';

const PAIRS = 20;

/** App instances on one set of memory repositories: what processes on one database look like. */
async function instances() {
  const ctx = makeCore();
  const { actor } = await signUp(ctx, 'alice');
  return { ...ctx, cores: [ctx.core, createCore(ctx.ports), createCore(ctx.ports)] as const, alice: actor };
}

const mkdir = (core: Core, actor: Actor, name: string, parentId: string | null = null) =>
  core.createFolder.execute({ actor, name, parentId });

function aFolder(ownerId: string, id: string, parentId: string | null): Folder {
  const at = new Date('2026-11-22T10:00:00.000Z');
  return { id, ownerId, parentId, name: id, createdAt: at, updatedAt: at };
}

describe('crossing moves on several instances', () => {
  it(`never make a cycle: ${PAIRS} pairs of folders, each moved into the other at once`, async () => {
    const { ports, cores, alice } = await instances();
    const pairs = [];
    for (let i = 0; i < PAIRS; i++) pairs.push([await mkdir(cores[0], alice, `a${i}`), await mkdir(cores[1], alice, `b${i}`)]);
    const results = await Promise.allSettled(
      pairs.flatMap(([a, b]) => [
        cores[0].updateFolder.execute({ actor: alice, id: a!.id, parentId: b!.id }),
        cores[1].updateFolder.execute({ actor: alice, id: b!.id, parentId: a!.id }),
      ]),
    );
    expect(await treeProblems(ports, alice.userId)).toEqual([]);
    for (let i = 0; i < PAIRS; i++) {
      const pair = results.slice(2 * i, 2 * i + 2);
      expect(pair.map((r) => r.status).sort(), `pair ${i}`).toEqual(['fulfilled', 'rejected']);
      const refused = pair.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({ code: 'bad_request' });
    }
    for (const [a] of pairs) await cores[1].getFolder.execute({ access: { actor: alice, share: null }, id: a!.id });
  });

  it('never make a cycle through a longer loop (a into b, b into c, c into a) either', async () => {
    const { ports, cores, alice } = await instances();
    for (let round = 0; round < 10; round++) {
      const [a, b, c] = [await mkdir(cores[0], alice, 'a'), await mkdir(cores[0], alice, 'b'), await mkdir(cores[1], alice, 'c')];
      const results = await Promise.allSettled([
        cores[0].updateFolder.execute({ actor: alice, id: a.id, parentId: b.id }),
        cores[1].updateFolder.execute({ actor: alice, id: b.id, parentId: c.id }),
        cores[2].updateFolder.execute({ actor: alice, id: c.id, parentId: a.id }),
      ]);
      expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    }
    expect(await treeProblems(ports, alice.userId)).toEqual([]);
  });
});

describe('the move lease', () => {
  it('outlives an instance that died holding it only until its time is up', async () => {
    const { ports, clock, cores, alice } = await instances();
    const [a, b] = [await mkdir(cores[0], alice, 'a'), await mkdir(cores[0], alice, 'b')];
    const now = clock.now();
    expect(await ports.folders.acquireMoveLease(alice.userId, 'died', new Date(now.getTime() + MOVE_LEASE_MS), now)).toBe(true);
    const started = Date.now();
    await expect(cores[1].updateFolder.execute({ actor: alice, id: a.id, parentId: b.id })).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(MOVE_LEASE_WAIT_MS);
    // A rename needs no lease.
    expect((await cores[1].updateFolder.execute({ actor: alice, id: a.id, name: 'renamed' })).name).toBe('renamed');
    clock.advance(MOVE_LEASE_MS);
    expect((await cores[1].updateFolder.execute({ actor: alice, id: a.id, parentId: b.id })).parentId).toBe(b.id);
  }, 20_000);

  it('makes a move whose lease is nearly over give up before it writes, and then frees it', async () => {
    let stall = 0;
    const ctx = makeCore({
      wrapPorts: (ports) => {
        const chain = ports.folders.chain.bind(ports.folders);
        ports.folders.chain = async (id) => {
          clock.advance(stall);
          return chain(id);
        };
        return ports;
      },
    });
    const { clock, core } = ctx;
    const { actor: alice } = await signUp(ctx, 'alice');
    const [a, b] = [await mkdir(core, alice, 'a'), await mkdir(core, alice, 'b')];
    stall = MOVE_LEASE_MS - MOVE_LEASE_MARGIN_MS + 1;
    await expect(core.updateFolder.execute({ actor: alice, id: a.id, parentId: b.id })).rejects.toMatchObject({
      code: 'conflict',
    });
    expect((await ctx.ports.folders.findById(a.id))?.parentId).toBeNull();
    stall = MOVE_LEASE_MS - MOVE_LEASE_MARGIN_MS - 1;
    expect((await core.updateFolder.execute({ actor: alice, id: a.id, parentId: b.id })).parentId).toBe(b.id);
  });
});

describe('a stored tree that is not one', () => {
  let t: HttpTest;
  afterEach(async () => {
    await t?.close();
  });

  it('reads and deletes a stored cycle sanely instead of failing or hanging', async () => {
    t = await makeHttp();
    const { token, userId } = await t.user('alice');
    // What an old race could leave: a and b each the other's parent, c its own, a file inside the loop.
    for (const folder of [aFolder(userId, 'a', 'b'), aFolder(userId, 'b', 'a'), aFolder(userId, 'c', 'c')]) {
      await t.ports.folders.insert(folder);
    }
    const upload = await t.upload(token, 'inside');
    expect(upload.status).toBe(201);
    await t.request('PATCH', `/api/file/${upload.body.id}`, { token, json: { folderId: 'b' } });

    const a = await t.request('GET', '/api/folder/a', { token });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ id: 'a', folders: [{ id: 'b', folders: [], files: [{ id: upload.body.id }] }] });
    expect((await t.request('GET', '/api/folder/c', { token })).status).toBe(200);
    const share = await t.request('POST', '/api/share', { token, json: { type: 'folder', id: 'a' } });
    expect((await t.request('GET', `/api/file/${upload.body.id}`, { headers: { 'x-share-id': share.body.id } })).status)
      .toBe(200);
    // A move out of the loop is allowed (the root is never inside it), a move into it is not.
    expect((await t.request('PATCH', '/api/folder/c', { token, json: { parentId: null } })).status).toBe(200);
    expect((await t.request('PATCH', '/api/folder/c', { token, json: { parentId: 'a' } })).status).toBe(200);
    expect((await t.request('DELETE', '/api/folder/a', { token })).status).toBe(204);
    expect(await t.ports.folders.listByOwner(userId)).toEqual([]);
    expect(await t.ports.files.listByOwner(userId)).toEqual([]);
  });

  it('reads, moves and deletes a stored chain far deeper than the API allows without overflowing the stack', async () => {
    t = await makeHttp();
    const { token, userId } = await t.user('alice');
    const depth = MAX_TREE_ENTRIES - 1;
    for (let i = 0; i < depth; i++) await t.ports.folders.insert(aFolder(userId, `d${i}`, i === 0 ? null : `d${i - 1}`));
    // Too deep to nest in one answer: refused like a subtree too large, its subfolders still read one by one.
    const read = await t.request('GET', '/api/folder/d0', { token });
    expect(read.status).toBe(400);
    expect(read.body).toMatchObject({ error: 'bad_request', maxDepth: MAX_STORED_DEPTH });
    expect((await t.request('GET', `/api/folder/d${depth - MAX_STORED_DEPTH}`, { token })).status).toBe(200);
    const other = await t.request('POST', '/api/folder', { token, json: { name: 'other' } });
    // Far too deep to go under anything: refused, not crashed.
    const move = await t.request('PATCH', '/api/folder/d0', { token, json: { parentId: other.body.id } });
    expect(move.status).toBe(400);
    expect((await t.request('DELETE', '/api/folder/d0', { token })).status).toBe(204);
    expect((await t.ports.folders.listByOwner(userId)).map((f) => f.id)).toEqual([other.body.id]);
  }, 60_000);
});
