import { describe, expect, it } from 'vitest';
import type { Core, FolderView, ReadAccess } from '../../src/application/index.js';
import { MemoryBlobStore } from '../../src/adapters/memory-blob-store/memory-blob-store.js';
import { MAX_FOLDER_DEPTH, type Actor } from '../../src/domain/index.js';
import { bytes, makeCore, signUp, type TestCoreOptions } from '../support/core.js';

async function setup(options: TestCoreOptions = {}) {
  const ctx = makeCore(options);
  const alice = (await signUp(ctx, 'alice')).actor;
  const bob = (await signUp(ctx, 'bob')).actor;
  return { ...ctx, alice, bob };
}

const mkdir = (core: Core, actor: Actor, name: string, parentId: string | null = null) =>
  core.createFolder.execute({ actor, name, parentId });

const put = (core: Core, actor: Actor, name: string, folderId: string | null, data = 'x') =>
  core.uploadFile.execute({ actor, folderId, name, filename: name, mime: 'text/plain', content: bytes(data) });

const owner = (actor: Actor): ReadAccess => ({ actor, share: null });
const viaShare = (id: string, password: string | null = null): ReadAccess => ({ actor: null, share: { id, password } });

async function codeOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => 'resolved',
    (err: { code?: string }) => err.code ?? err,
  );
}

/** The names in a nested view, as an outline, to compare whole trees at once. */
function outline(view: FolderView): unknown {
  return { name: view.name, files: view.files.map((f) => f.name), folders: view.folders.map(outline) };
}

/** docs/{b.txt, a.txt, sub/{deep/{z.bin}, c.txt}, Alpha/} */
async function sampleTree(core: Core, actor: Actor) {
  const docs = await mkdir(core, actor, 'docs');
  const sub = await mkdir(core, actor, 'sub', docs.id);
  const alpha = await mkdir(core, actor, 'Alpha', docs.id);
  const deep = await mkdir(core, actor, 'deep', sub.id);
  const b = await put(core, actor, 'b.txt', docs.id);
  const a = await put(core, actor, 'a.txt', docs.id);
  const c = await put(core, actor, 'c.txt', sub.id, '12345');
  const z = await put(core, actor, 'z.bin', deep.id, '1234567890');
  return { docs, sub, alpha, deep, a, b, c, z };
}

describe('creating folders', () => {
  it('creates under an own parent and refuses a foreign or unknown one', async () => {
    const { core, alice, bob } = await setup();
    const parent = await mkdir(core, alice, 'parent');
    const child = await mkdir(core, alice, 'child', parent.id);
    expect(child).toMatchObject({ parentId: parent.id, ownerId: alice.userId, files: [], folders: [], shareId: null });
    expect(await codeOf(mkdir(core, bob, 'x', parent.id))).toBe('not_found');
    expect(await codeOf(mkdir(core, alice, 'x', 'missing'))).toBe('not_found');
  });

  it('allows exactly MAX_FOLDER_DEPTH levels', async () => {
    const { core, alice } = await setup();
    let parentId: string | null = null;
    for (let depth = 1; depth <= MAX_FOLDER_DEPTH; depth++) parentId = (await mkdir(core, alice, `l${depth}`, parentId)).id;
    expect(await codeOf(mkdir(core, alice, 'too deep', parentId))).toBe('bad_request');
  });

  it('lets exactly as many concurrent creates through as the maximum allows', async () => {
    const { core, ports, alice } = await setup({ limits: { folders: 5 } });
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => mkdir(core, alice, `f${i}`)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    expect((await ports.usage.get(alice.userId)).folders).toBe(5);
    expect(await ports.folders.listByOwner(alice.userId)).toHaveLength(5);
    expect((await core.getUsage.execute({ actor: alice })).folders.current).toBe(5);
  });
});

describe('reading folders', () => {
  it('returns the whole subtree nested, each level in name order, with sizes and share ids', async () => {
    const { core, alice } = await setup();
    const t = await sampleTree(core, alice);
    const share = await core.createShare.execute({ actor: alice, type: 'file', id: t.c.id, password: null });
    const view = await core.getFolder.execute({ access: owner(alice), id: t.docs.id });
    expect(outline(view)).toEqual({
      name: 'docs',
      files: ['a.txt', 'b.txt'],
      folders: [
        { name: 'Alpha', files: [], folders: [] },
        { name: 'sub', files: ['c.txt'], folders: [{ name: 'deep', files: ['z.bin'], folders: [] }] },
      ],
    });
    const sub = view.folders[1]!;
    expect(sub).toMatchObject({ id: t.sub.id, parentId: t.docs.id });
    expect(sub.files[0]).toMatchObject({ id: t.c.id, size: '5', shareId: share.id });
    expect(sub.folders[0]!.files[0]).toMatchObject({ size: '10', folderId: t.deep.id, shareId: null });
  });

  it('is readable through a share of it or of an ancestor, never of a sibling', async () => {
    const { core, alice, bob } = await setup();
    const t = await sampleTree(core, alice);
    const docsShare = await core.createShare.execute({ actor: alice, type: 'folder', id: t.docs.id, password: null });
    const alphaShare = await core.createShare.execute({ actor: alice, type: 'folder', id: t.alpha.id, password: 'pw-12345' });

    const viaDocs = await core.getFolder.execute({ access: viaShare(docsShare.id), id: t.deep.id });
    expect(viaDocs.files.map((f) => f.name)).toEqual(['z.bin']);
    expect(await core.getFolder.execute({ access: { actor: bob, share: { id: docsShare.id, password: null } }, id: t.sub.id }))
      .toMatchObject({ id: t.sub.id });
    expect(await codeOf(core.getFile.execute({ access: viaShare(docsShare.id), id: t.z.id }))).toBe('resolved');

    expect(await codeOf(core.getFolder.execute({ access: viaShare(alphaShare.id, 'pw-12345'), id: t.sub.id }))).toBe('not_found');
    expect(await codeOf(core.getFolder.execute({ access: viaShare(alphaShare.id, 'pw-12345'), id: t.docs.id }))).toBe('not_found');
    expect(await codeOf(core.getFile.execute({ access: viaShare(alphaShare.id, 'pw-12345'), id: t.a.id }))).toBe('not_found');
    expect(await codeOf(core.getFolder.execute({ access: viaShare(alphaShare.id), id: t.alpha.id }))).toBe(
      'share_password_required',
    );
    expect(await codeOf(core.getFolder.execute({ access: viaShare(alphaShare.id, 'pw-12345'), id: t.alpha.id }))).toBe(
      'resolved',
    );
  });

  it('hides folders from other users and from anonymous readers', async () => {
    const { core, alice, bob } = await setup();
    const docs = await mkdir(core, alice, 'docs');
    expect(await codeOf(core.getFolder.execute({ access: owner(bob), id: docs.id }))).toBe('not_found');
    expect(await codeOf(core.getFolder.execute({ access: { actor: null, share: null }, id: docs.id }))).toBe('unauthorized');
    expect(await codeOf(core.getFolder.execute({ access: viaShare('no-such-share'), id: docs.id }))).toBe('not_found');
  });

  it('lists the root: top-level folders as hits with counts, top-level files', async () => {
    const { core, alice, bob } = await setup();
    const t = await sampleTree(core, alice);
    await put(core, alice, 'top.txt', null);
    await mkdir(core, bob, 'bobs');
    const share = await core.createShare.execute({ actor: alice, type: 'folder', id: t.docs.id, password: null });
    const root = await core.listRoot.execute({ actor: alice });
    expect(root.files.map((f) => f.name)).toEqual(['top.txt']);
    expect(root.folders).toEqual([
      expect.objectContaining({ id: t.docs.id, fileCount: 2, folderCount: 2, files: [], folders: [], shareId: share.id }),
    ]);
  });
});

describe('updating folders', () => {
  it('renames and moves, never into its own subtree or a foreign folder', async () => {
    const { core, alice, bob } = await setup();
    const t = await sampleTree(core, alice);
    const other = await mkdir(core, alice, 'other');
    const renamed = await core.updateFolder.execute({ actor: alice, id: t.sub.id, name: 'renamed' });
    expect(renamed).toMatchObject({ name: 'renamed', parentId: t.docs.id, files: [], folders: [] });
    const moved = await core.updateFolder.execute({ actor: alice, id: t.sub.id, parentId: other.id });
    expect(moved.parentId).toBe(other.id);
    expect((await core.getFolder.execute({ access: owner(alice), id: other.id })).folders[0]?.folders[0]?.files[0]?.name)
      .toBe('z.bin');
    expect(await codeOf(core.updateFolder.execute({ actor: alice, id: other.id, parentId: t.deep.id }))).toBe('bad_request');
    expect(await codeOf(core.updateFolder.execute({ actor: alice, id: other.id, parentId: other.id }))).toBe('bad_request');
    const bobs = await mkdir(core, bob, 'bobs');
    expect(await codeOf(core.updateFolder.execute({ actor: alice, id: other.id, parentId: bobs.id }))).toBe('not_found');
    expect(await codeOf(core.updateFolder.execute({ actor: bob, id: other.id, name: 'mine' }))).toBe('not_found');
    expect((await core.updateFolder.execute({ actor: alice, id: t.sub.id, parentId: null })).parentId).toBeNull();
  });

  it('never lets two crossing moves make a cycle', async () => {
    const { core, ports, alice } = await setup();
    const a = await mkdir(core, alice, 'a');
    const b = await mkdir(core, alice, 'b');
    const results = await Promise.allSettled([
      core.updateFolder.execute({ actor: alice, id: a.id, parentId: b.id }),
      core.updateFolder.execute({ actor: alice, id: b.id, parentId: a.id }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    // Whichever won, both folders still hang from the root.
    for (const id of [a.id, b.id]) {
      const chain = await ports.folders.chain(id);
      const top = await ports.folders.findById(chain[0]!);
      expect(top?.parentId).toBeNull();
    }
  });

  it('refuses a move that would push the deepest descendant past the depth limit', async () => {
    const { core, alice } = await setup();
    let parentId: string | null = null;
    for (let depth = 1; depth <= MAX_FOLDER_DEPTH - 2; depth++) parentId = (await mkdir(core, alice, `l${depth}`, parentId)).id;
    const moving = await mkdir(core, alice, 'moving');
    const child = await mkdir(core, alice, 'child', moving.id);
    // moving would sit at depth MAX-1 and its child at MAX: allowed; one level more is not.
    await core.updateFolder.execute({ actor: alice, id: moving.id, parentId });
    await core.updateFolder.execute({ actor: alice, id: moving.id, parentId: null });
    await mkdir(core, alice, 'grandchild', child.id);
    expect(await codeOf(core.updateFolder.execute({ actor: alice, id: moving.id, parentId }))).toBe('bad_request');
  });
});

describe('deleting folders', () => {
  it('deletes the subtree with its files, bytes, shares and counts, and nothing else', async () => {
    const { core, ports, alice } = await setup();
    const t = await sampleTree(core, alice);
    const kept = await put(core, alice, 'kept.txt', null, 'abc');
    await core.createShare.execute({ actor: alice, type: 'folder', id: t.sub.id, password: null });
    await core.createShare.execute({ actor: alice, type: 'file', id: t.z.id, password: null });
    const collection = await core.createCollection.execute({ actor: alice, name: 'c' });
    await core.addToCollection.execute({ actor: alice, id: collection.id, fileId: t.a.id });
    await core.addToCollection.execute({ actor: alice, id: collection.id, fileId: kept.id });

    await core.deleteFolder.execute({ actor: alice, id: t.docs.id });
    expect(await ports.folders.listByOwner(alice.userId)).toEqual([]);
    expect((await ports.files.listByOwner(alice.userId)).map((f) => f.id)).toEqual([kept.id]);
    expect(await ports.shares.listByOwner(alice.userId)).toEqual([]);
    expect((await ports.collections.findById(collection.id))?.fileIds).toEqual([kept.id]);
    expect((ports.blobs as MemoryBlobStore).keys()).toHaveLength(1);
    expect(await ports.usage.get(alice.userId)).toMatchObject({ folders: 0, files: 1, storage: 3, shares: 0, collections: 1 });
    expect(await codeOf(core.deleteFolder.execute({ actor: alice, id: t.docs.id }))).toBe('not_found');
  });

  it('refuses to delete a foreign folder', async () => {
    const { core, ports, alice, bob } = await setup();
    const docs = await mkdir(core, alice, 'docs');
    expect(await codeOf(core.deleteFolder.execute({ actor: bob, id: docs.id }))).toBe('not_found');
    expect(await ports.folders.findById(docs.id)).not.toBeNull();
  });
});
