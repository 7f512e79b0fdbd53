import { beforeEach, describe, expect, it } from 'vitest';
import type { ShareRepository } from '../../src/application/ports/index.js';
import { aShare, at, ids } from './fixtures.js';

const sorted = (values: string[]) => [...values].sort();

/** Every ShareRepository adapter runs this. `make` must return an adapter over empty storage. */
export function shareRepositoryContract(name: string, make: () => Promise<ShareRepository>): void {
  describe(name, () => {
    let shares: ShareRepository;
    beforeEach(async () => {
      shares = await make();
    });

    it('stores a share and finds it by id and by item; unknown ones are null', async () => {
      const share = aShare({ type: 'folder', itemId: 'folder-1', passwordHash: 'argon2-hash', views: 3 });
      expect(await shares.insert(share)).toBe(true);
      expect(await shares.findById(share.id)).toEqual(share);
      expect(await shares.findByItem('folder', 'folder-1')).toEqual(share);
      expect(await shares.findByItem('file', 'folder-1')).toBeNull();
      expect(await shares.findById('no-such-share')).toBeNull();
    });

    it('allows one share per item and writes nothing for a second', async () => {
      const first = aShare({ id: 's-1', type: 'file', itemId: 'i-1' });
      expect(await shares.insert(first)).toBe(true);
      expect(await shares.insert(aShare({ id: 's-2', type: 'file', itemId: 'i-1' }))).toBe(false);
      expect(await shares.findById('s-2')).toBeNull();
      expect(await shares.findByItem('file', 'i-1')).toEqual(first);
      expect(await shares.listByOwner('owner-1')).toEqual([first]);
      expect(await shares.insert(aShare({ id: 's-3', type: 'paste', itemId: 'i-1' }))).toBe(true);
    });

    it('allows one share per item even under concurrent inserts', async () => {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => shares.insert(aShare({ id: `s-${i}`, type: 'collection', itemId: 'c' }))),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await shares.listByOwner('owner-1')).toHaveLength(1);
    });

    it('refuses a second share with the same id and writes nothing', async () => {
      const first = aShare({ id: 'same', itemId: 'i-1' });
      await shares.insert(first);
      expect(await shares.insert(aShare({ id: 'same', itemId: 'i-2' }))).toBe(false);
      expect(await shares.findById('same')).toEqual(first);
      expect(await shares.findByItem('file', 'i-2')).toBeNull();
    });

    it('maps shared items of one type to their share ids', async () => {
      await shares.insert(aShare({ id: 's-1', type: 'file', itemId: 'a' }));
      await shares.insert(aShare({ id: 's-2', type: 'file', itemId: 'b' }));
      await shares.insert(aShare({ id: 's-3', type: 'folder', itemId: 'c' }));
      const map = await shares.idsForItems('file', ['a', 'b', 'c', 'unknown']);
      expect(Object.fromEntries(map)).toEqual({ a: 's-1', b: 's-2' });
      expect((await shares.idsForItems('folder', ['a', 'c'])).get('c')).toBe('s-3');
      expect((await shares.idsForItems('file', [])).size).toBe(0);
    });

    it("lists the owner's shares by createdAt then id, and no one else's", async () => {
      await shares.insert(aShare({ id: 's-c', createdAt: at(1) }));
      await shares.insert(aShare({ id: 's-b', createdAt: at(2) }));
      await shares.insert(aShare({ id: 's-a', createdAt: at(1) }));
      await shares.insert(aShare({ id: 's-z', createdAt: at(0) }));
      await shares.insert(aShare({ id: 's-o', ownerId: 'owner-2' }));
      expect(ids(await shares.listByOwner('owner-1'))).toEqual(['s-z', 's-a', 's-c', 's-b']);
      expect(await shares.listByOwner('owner-3')).toEqual([]);
    });

    it('counts every view, also under concurrent reads', async () => {
      const share = aShare();
      await shares.insert(share);
      expect(await shares.incrementViews(share.id)).toEqual({ ...share, views: 1 });
      await Promise.all(Array.from({ length: 50 }, () => shares.incrementViews(share.id)));
      expect((await shares.findById(share.id))!.views).toBe(51);
      expect(await shares.incrementViews('no-such-share')).toBeNull();
    });

    it('sets and clears the password hash', async () => {
      const share = aShare();
      await shares.insert(share);
      expect(await shares.setPassword(share.id, 'hash-1')).toEqual({ ...share, passwordHash: 'hash-1' });
      expect((await shares.findById(share.id))!.passwordHash).toBe('hash-1');
      expect(await shares.setPassword(share.id, null)).toEqual(share);
      expect(await shares.findById(share.id)).toEqual(share);
      expect(await shares.setPassword('no-such-share', 'x')).toBeNull();
    });

    it('deletes once, returning the deleted share, and frees its item', async () => {
      const share = aShare({ type: 'paste', itemId: 'p-1' });
      await shares.insert(share);
      expect(await shares.delete(share.id)).toEqual(share);
      expect(await shares.delete(share.id)).toBeNull();
      expect(await shares.findById(share.id)).toBeNull();
      expect(await shares.findByItem('paste', 'p-1')).toBeNull();
      expect(await shares.listByOwner('owner-1')).toEqual([]);
      expect(await shares.insert(aShare({ type: 'paste', itemId: 'p-1' }))).toBe(true);
    });

    it('deletes the shares of the listed items of one type and returns them', async () => {
      const a = aShare({ type: 'file', itemId: 'a' });
      const b = aShare({ type: 'file', itemId: 'b' });
      const c = aShare({ type: 'file', itemId: 'c' });
      const folderA = aShare({ type: 'folder', itemId: 'a' });
      for (const share of [a, b, c, folderA]) await shares.insert(share);
      const deleted = await shares.deleteByItems('file', ['a', 'b', 'unknown']);
      expect(sorted(ids(deleted))).toEqual(sorted([a.id, b.id]));
      expect(deleted.find((share) => share.id === a.id)).toEqual(a);
      expect(await shares.findById(a.id)).toBeNull();
      expect(await shares.findByItem('file', 'b')).toBeNull();
      expect(await shares.findById(c.id)).toEqual(c);
      expect(await shares.findById(folderA.id)).toEqual(folderA);
      expect(await shares.deleteByItems('file', ['a'])).toEqual([]);
      expect(await shares.deleteByItems('file', [])).toEqual([]);
    });

    it('keeps its own copies: mutating what went in or came out changes nothing stored', async () => {
      const share = aShare({ passwordHash: 'h' });
      const original = structuredClone(share);
      await shares.insert(share);
      share.views = 100;
      share.passwordHash = null;
      share.createdAt.setTime(0);
      expect(await shares.findById(original.id)).toEqual(original);

      (await shares.findById(original.id))!.views = 7;
      (await shares.findByItem(original.type, original.itemId))!.passwordHash = null;
      (await shares.listByOwner('owner-1'))[0]!.createdAt.setTime(0);
      (await shares.incrementViews(original.id))!.views = 70;
      (await shares.setPassword(original.id, 'h'))!.itemId = 'x';
      expect(await shares.findById(original.id)).toEqual({ ...original, views: 1 });
    });
  });
}
