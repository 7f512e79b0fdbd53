import { beforeEach, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/index.js';
import { MAX_COLLECTION_FILES } from '../../src/domain/index.js';
import { makeCore, signUp } from '../support/core.js';
import { asUploader, storeFile, tally } from './fixtures.js';

type Ctx = ReturnType<typeof makeCore>;

describe('collections', () => {
  let ctx: Ctx;
  let alice: Actor;
  let bob: Actor;

  beforeEach(async () => {
    ctx = makeCore();
    alice = (await signUp(ctx, 'alice')).actor;
    bob = (await signUp(ctx, 'bob')).actor;
  });

  const usage = (actor: Actor) => ctx.ports.usage.get(actor.userId);

  describe('create', () => {
    it('creates an empty collection and counts it', async () => {
      const view = await ctx.core.createCollection.execute({ actor: alice, name: '  Holiday  ' });
      expect(view).toMatchObject({ name: 'Holiday', ownerId: alice.userId, files: [], count: 0, shareId: null });
      expect(view.createdAt).toBe('2026-11-22T10:00:00.000Z');
      expect((await usage(alice)).collections).toBe(1);
      expect(await ctx.ports.collections.findById(view.id)).not.toBeNull();
    });

    it('refuses an empty name and counts nothing', async () => {
      await expect(ctx.core.createCollection.execute({ actor: alice, name: ' \u200b ' })).rejects.toMatchObject({
        code: 'bad_request',
        details: { field: 'name' },
      });
      expect((await usage(alice)).collections).toBe(0);
    });

    it('is forbidden to an uploader token', async () => {
      await expect(ctx.core.createCollection.execute({ actor: asUploader(alice), name: 'x' })).rejects.toMatchObject({
        code: 'forbidden',
      });
      expect((await usage(alice)).collections).toBe(0);
    });

    it('stops at the maximum with limit_reached naming collections', async () => {
      ctx = makeCore({ limits: { collections: 2 } });
      alice = (await signUp(ctx, 'alice')).actor;
      await ctx.core.createCollection.execute({ actor: alice, name: 'a' });
      await ctx.core.createCollection.execute({ actor: alice, name: 'b' });
      await expect(ctx.core.createCollection.execute({ actor: alice, name: 'c' })).rejects.toMatchObject({
        code: 'limit_reached',
        details: { limit: 'collections' },
      });
      expect((await ctx.core.listCollections.execute({ actor: alice })).items).toHaveLength(2);
      expect((await usage(alice)).collections).toBe(2);
    });

    it('lets exactly as many concurrent creates through as there is room for', async () => {
      ctx = makeCore({ limits: { collections: 5 } });
      alice = (await signUp(ctx, 'alice')).actor;
      const { ok, codes } = await tally(
        Array.from({ length: 20 }, (_, i) => ctx.core.createCollection.execute({ actor: alice, name: `c${i}` })),
      );
      expect(ok).toHaveLength(5);
      expect(codes).toEqual(Array(15).fill('limit_reached'));
      expect((await usage(alice)).collections).toBe(5);
      expect((await ctx.core.listCollections.execute({ actor: alice })).items).toHaveLength(5);
    });
  });

  describe('list', () => {
    it("lists only the caller's collections, with their files in order", async () => {
      const a = await ctx.core.createCollection.execute({ actor: alice, name: 'a' });
      await ctx.core.createCollection.execute({ actor: bob, name: 'bob only' });
      const f1 = await storeFile(ctx.ports, alice.userId, 'one.txt', '1');
      const f2 = await storeFile(ctx.ports, alice.userId, 'two.txt', '22');
      await ctx.core.addToCollection.execute({ actor: alice, id: a.id, fileId: f2.id });
      await ctx.core.addToCollection.execute({ actor: alice, id: a.id, fileId: f1.id });
      const list = (await ctx.core.listCollections.execute({ actor: alice })).items;
      expect(list.map((c) => c.name)).toEqual(['a']);
      expect(list[0]!.files.map((f) => f.name)).toEqual(['two.txt', 'one.txt']);
      expect(list[0]!.files[1]).toMatchObject({ size: '1', folderId: null, shareId: null });
      expect(list[0]!.count).toBe(2);
    });

    it('is forbidden to an uploader token', async () => {
      await expect(ctx.core.listCollections.execute({ actor: asUploader(alice) })).rejects.toMatchObject({
        code: 'forbidden',
      });
    });
  });

  describe('add and remove files', () => {
    it('adds idempotently, skips files that no longer exist and shows file shares', async () => {
      const c = await ctx.core.createCollection.execute({ actor: alice, name: 'c' });
      const f1 = await storeFile(ctx.ports, alice.userId, 'one.txt', '1');
      const f2 = await storeFile(ctx.ports, alice.userId, 'two.txt', '2');
      await ctx.core.addToCollection.execute({ actor: alice, id: c.id, fileId: f1.id });
      const again = await ctx.core.addToCollection.execute({ actor: alice, id: c.id, fileId: f1.id });
      expect(again.count).toBe(1);
      await ctx.core.addToCollection.execute({ actor: alice, id: c.id, fileId: f2.id });
      const share = await ctx.core.createShare.execute({ actor: alice, type: 'file', id: f2.id, password: null });
      await ctx.ports.files.delete(f1.id);
      const view = await ctx.core.getCollection.execute({ access: { actor: alice, share: null }, id: c.id });
      expect(view.files.map((f) => [f.id, f.shareId])).toEqual([[f2.id, share.id]]);
      expect(view.count).toBe(1);
    });

    it("refuses someone else's file, a missing file and someone else's collection as not_found", async () => {
      const c = await ctx.core.createCollection.execute({ actor: alice, name: 'c' });
      const bobs = await storeFile(ctx.ports, bob.userId, 'bob.txt', 'b');
      const mine = await storeFile(ctx.ports, alice.userId, 'mine.txt', 'm');
      const add = (actor: Actor, id: string, fileId: string) =>
        ctx.core.addToCollection.execute({ actor, id, fileId });
      await expect(add(alice, c.id, bobs.id)).rejects.toMatchObject({ code: 'not_found' });
      await expect(add(alice, c.id, 'nope')).rejects.toMatchObject({ code: 'not_found' });
      await expect(add(bob, c.id, bobs.id)).rejects.toMatchObject({ code: 'not_found' });
      await expect(add(alice, 'nope', mine.id)).rejects.toMatchObject({ code: 'not_found' });
      await expect(add(asUploader(alice), c.id, mine.id)).rejects.toMatchObject({ code: 'forbidden' });
      expect((await ctx.ports.collections.findById(c.id))!.fileIds).toEqual([]);
    });

    it('refuses a file beyond the per-collection maximum as bad_request', async () => {
      const now = ctx.ports.clock.now();
      const full = Array.from({ length: MAX_COLLECTION_FILES }, (_, i) => `f${i}`);
      await ctx.ports.collections.insert({
        id: 'full',
        ownerId: alice.userId,
        name: 'full',
        fileIds: full,
        createdAt: now,
        updatedAt: now,
      });
      const f = await storeFile(ctx.ports, alice.userId, 'x.txt', 'x');
      await expect(ctx.core.addToCollection.execute({ actor: alice, id: 'full', fileId: f.id })).rejects.toMatchObject({
        code: 'bad_request',
      });
      expect((await ctx.ports.collections.findById('full'))!.fileIds).toHaveLength(MAX_COLLECTION_FILES);
    });

    it('removes a file, and removing an absent one is fine', async () => {
      const c = await ctx.core.createCollection.execute({ actor: alice, name: 'c' });
      const f = await storeFile(ctx.ports, alice.userId, 'one.txt', '1');
      await ctx.core.addToCollection.execute({ actor: alice, id: c.id, fileId: f.id });
      const removed = await ctx.core.removeFromCollection.execute({ actor: alice, id: c.id, fileId: f.id });
      expect(removed).toMatchObject({ files: [], count: 0 });
      const again = await ctx.core.removeFromCollection.execute({ actor: alice, id: c.id, fileId: f.id });
      expect(again.count).toBe(0);
      expect(await ctx.ports.files.findById(f.id)).not.toBeNull();
    });

    it("refuses to remove from someone else's or a missing collection", async () => {
      const c = await ctx.core.createCollection.execute({ actor: alice, name: 'c' });
      const f = await storeFile(ctx.ports, alice.userId, 'one.txt', '1');
      await ctx.core.addToCollection.execute({ actor: alice, id: c.id, fileId: f.id });
      await expect(
        ctx.core.removeFromCollection.execute({ actor: bob, id: c.id, fileId: f.id }),
      ).rejects.toMatchObject({ code: 'not_found' });
      await expect(
        ctx.core.removeFromCollection.execute({ actor: alice, id: 'nope', fileId: f.id }),
      ).rejects.toMatchObject({ code: 'not_found' });
      expect((await ctx.ports.collections.findById(c.id))!.fileIds).toEqual([f.id]);
    });
  });

  describe('get', () => {
    it('answers the owner and hides the collection from everyone else', async () => {
      const c = await ctx.core.createCollection.execute({ actor: alice, name: 'c' });
      const get = (actor: Actor | null, id = c.id) => ctx.core.getCollection.execute({ access: { actor, share: null }, id });
      expect((await get(alice)).id).toBe(c.id);
      await expect(get(bob)).rejects.toMatchObject({ code: 'not_found' });
      await expect(get(alice, 'nope')).rejects.toMatchObject({ code: 'not_found' });
      await expect(get(null)).rejects.toMatchObject({ code: 'unauthorized' });
      await expect(get(null, 'nope')).rejects.toMatchObject({ code: 'unauthorized' });
      await expect(get(asUploader(alice))).rejects.toMatchObject({ code: 'forbidden' });
    });

    it('answers anyone through its share link, and only the right password opens a protected one', async () => {
      const c = await ctx.core.createCollection.execute({ actor: alice, name: 'c' });
      const other = await ctx.core.createCollection.execute({ actor: alice, name: 'other' });
      const share = await ctx.core.createShare.execute({ actor: alice, type: 'collection', id: c.id, password: 'pw' });
      const get = (id: string, password: string | null) =>
        ctx.core.getCollection.execute({ access: { actor: null, share: { id: share.id, password } }, id });
      expect((await get(c.id, 'pw')).shareId).toBe(share.id);
      await expect(get(c.id, null)).rejects.toMatchObject({ code: 'share_password_required' });
      await expect(get(c.id, 'wrong')).rejects.toMatchObject({ code: 'share_password_invalid' });
      await expect(get(other.id, 'pw')).rejects.toMatchObject({ code: 'not_found' });
      await expect(get('nope', 'pw')).rejects.toMatchObject({ code: 'not_found' });
    });
  });

  describe('update', () => {
    it('renames, keeps the name when none is given, and refuses an empty one', async () => {
      const c = await ctx.core.createCollection.execute({ actor: alice, name: 'old' });
      ctx.clock.advance(1000);
      const renamed = await ctx.core.updateCollection.execute({ actor: alice, id: c.id, name: 'new' });
      expect(renamed).toMatchObject({ name: 'new', updatedAt: '2026-11-22T10:00:01.000Z' });
      expect((await ctx.core.updateCollection.execute({ actor: alice, id: c.id })).name).toBe('new');
      await expect(ctx.core.updateCollection.execute({ actor: alice, id: c.id, name: '  ' })).rejects.toMatchObject({
        code: 'bad_request',
      });
      await expect(ctx.core.updateCollection.execute({ actor: bob, id: c.id, name: 'x' })).rejects.toMatchObject({
        code: 'not_found',
      });
      expect((await ctx.ports.collections.findById(c.id))!.name).toBe('new');
    });
  });

  describe('delete', () => {
    it('deletes the collection and its share, releases both counts, and keeps the files', async () => {
      const c = await ctx.core.createCollection.execute({ actor: alice, name: 'c' });
      const f = await storeFile(ctx.ports, alice.userId, 'one.txt', '1');
      await ctx.core.addToCollection.execute({ actor: alice, id: c.id, fileId: f.id });
      const share = await ctx.core.createShare.execute({ actor: alice, type: 'collection', id: c.id, password: null });
      expect(await usage(alice)).toMatchObject({ collections: 1, shares: 1 });
      await ctx.core.deleteCollection.execute({ actor: alice, id: c.id });
      expect(await ctx.ports.collections.findById(c.id)).toBeNull();
      expect(await ctx.ports.shares.findById(share.id)).toBeNull();
      await expect(ctx.core.getShare.execute({ actor: null, id: share.id, password: null })).rejects.toMatchObject({
        code: 'not_found',
      });
      expect(await ctx.ports.files.findById(f.id)).not.toBeNull();
      expect(await usage(alice)).toMatchObject({ collections: 0, shares: 0 });
      await expect(ctx.core.deleteCollection.execute({ actor: alice, id: c.id })).rejects.toMatchObject({
        code: 'not_found',
      });
    });

    it("refuses someone else's collection and uploader tokens", async () => {
      const c = await ctx.core.createCollection.execute({ actor: alice, name: 'c' });
      await expect(ctx.core.deleteCollection.execute({ actor: bob, id: c.id })).rejects.toMatchObject({
        code: 'not_found',
      });
      await expect(ctx.core.deleteCollection.execute({ actor: asUploader(alice), id: c.id })).rejects.toMatchObject({
        code: 'forbidden',
      });
      expect(await ctx.ports.collections.findById(c.id)).not.toBeNull();
      expect((await usage(alice)).collections).toBe(1);
    });
  });
});
