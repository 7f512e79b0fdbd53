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
      const share = aShare({
        ...{ type: 'folder', itemId: 'folder-1', passwordHash: 'argon2-hash', views: 3, downloads: 2 },
        ...{ expiresAt: at(90), maxViews: 7, maxDownloads: 8 },
      });
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

    it('counts every view and download of an unlimited share, also under concurrent reads', async () => {
      const share = aShare();
      await shares.insert(share);
      expect(await shares.countUse(share.id, 'views', at(5))).toEqual({ ...share, views: 1 });
      expect(await shares.countUse(share.id, 'downloads', at(5))).toEqual({ ...share, views: 1, downloads: 1 });
      await Promise.all(Array.from({ length: 50 }, () => shares.countUse(share.id, 'views', at(5))));
      expect((await shares.findById(share.id))!.views).toBe(51);
      expect(await shares.countUse('no-such-share', 'views', at(5))).toBeNull();
      // Several counters move together in the one update, or none does.
      const both = await shares.countUse(share.id, ['views', 'downloads'], at(5));
      expect(both).toMatchObject({ views: 52, downloads: 2 });
    });

    for (const [counter, max] of [
      ['views', 'maxViews'],
      ['downloads', 'maxDownloads'],
    ] as const) {
      it(`counts exactly ${max} ${counter} out of 50 concurrent ones, and refuses the rest without counting`, async () => {
        const share = aShare({ [max]: 10 });
        await shares.insert(share);
        const counted = await Promise.all(Array.from({ length: 50 }, () => shares.countUse(share.id, counter, at(5))));
        // Only the number of successes is checked, not the counts they return: the wire-compatible test server
        // re-reads the document after its update, so racing answers may repeat a count there (real MongoDB does not).
        expect(counted.filter((c) => c !== null)).toHaveLength(10);
        const stored = (await shares.findById(share.id))!;
        expect(stored[counter]).toBe(10);
        expect(stored[counter === 'views' ? 'downloads' : 'views']).toBe(0);
      });
    }

    it('counts nothing once either maximum is reached, whichever counter is asked', async () => {
      const spent = aShare({ maxDownloads: 2, downloads: 2, maxViews: 5, views: 1 });
      const viewed = aShare({ maxViews: 3, views: 3 });
      await shares.insert(spent);
      await shares.insert(viewed);
      expect(await shares.countUse(spent.id, 'views', at(5))).toBeNull();
      expect(await shares.countUse(viewed.id, 'downloads', at(5))).toBeNull();
      expect(await shares.findById(spent.id)).toEqual(spent);
      expect(await shares.findById(viewed.id)).toEqual(viewed);
    });

    it('counts nothing from the instant a share expires', async () => {
      const share = aShare({ expiresAt: at(10) });
      await shares.insert(share);
      expect((await shares.countUse(share.id, 'views', at(9)))!.views).toBe(1);
      expect(await shares.countUse(share.id, 'views', at(10))).toBeNull();
      expect(await shares.countUse(share.id, 'downloads', at(60))).toBeNull();
      expect(await shares.findById(share.id)).toEqual({ ...share, views: 1 });
    });

    it('keeps the owner name a share was made with', async () => {
      const share = aShare({ ownerName: 'Alice' });
      await shares.insert(share);
      expect(await shares.findById(share.id)).toEqual(share);
    });

    it('counts an open use only for an active, open share of a listed type that the reader does not own', async () => {
      const open = aShare({ ownerId: 'owner-1', type: 'file', maxViews: 2 });
      const locked = aShare({ passwordHash: 'argon2-hash' });
      const paste = aShare({ type: 'paste' });
      const expired = aShare({ expiresAt: at(1) });
      for (const share of [open, locked, paste, expired]) await shares.insert(share);
      const use = { counter: 'views' as const, now: at(5), readerId: 'reader-1', types: ['file', 'folder'] as const };
      expect(await shares.countOpenUse(open.id, use)).toEqual({ ...open, views: 1 });
      expect(await shares.countOpenUse(open.id, { ...use, readerId: null })).toEqual({ ...open, views: 2 });
      for (const refused of [
        [open.id, use],
        [open.id, { ...use, readerId: 'owner-1' }],
        [locked.id, use],
        [paste.id, use],
        [expired.id, use],
        ['no-such-share', use],
      ] as const) {
        expect(await shares.countOpenUse(refused[0], refused[1])).toBeNull();
      }
      expect(await shares.findById(locked.id)).toEqual(locked);
      expect(await shares.findById(paste.id)).toEqual(paste);
      expect(await shares.findById(expired.id)).toEqual(expired);
    });

    it('counts exactly maxViews open uses out of 50 concurrent ones', async () => {
      const share = aShare({ maxViews: 10 });
      await shares.insert(share);
      const use = { counter: 'views' as const, now: at(5), readerId: null, types: ['file'] as const };
      const counted = await Promise.all(Array.from({ length: 50 }, () => shares.countOpenUse(share.id, use)));
      expect(counted.filter((c) => c !== null)).toHaveLength(10);
      expect((await shares.findById(share.id))!.views).toBe(10);
    });

    it('takes a counted use back, never below zero', async () => {
      const share = aShare({ views: 1, downloads: 0 });
      await shares.insert(share);
      await shares.uncountUse(share.id, ['views', 'downloads']);
      expect(await shares.findById(share.id)).toEqual(share);
      await shares.uncountUse(share.id, 'views');
      await shares.uncountUse(share.id, 'views');
      await shares.uncountUse('no-such-share', 'views');
      expect(await shares.findById(share.id)).toEqual({ ...share, views: 0 });
    });

    it('updates the fields named, leaves the others, and lifting a limit lets counting resume', async () => {
      const share = aShare({ maxViews: 1, views: 1, expiresAt: at(10) });
      await shares.insert(share);
      expect(await shares.update(share.id, { passwordHash: 'hash-1' })).toEqual({ ...share, passwordHash: 'hash-1' });
      expect(await shares.update(share.id, { maxViews: null, maxDownloads: 4 })).toEqual({
        ...share,
        passwordHash: 'hash-1',
        maxViews: null,
        maxDownloads: 4,
      });
      expect((await shares.countUse(share.id, 'views', at(5)))!.views).toBe(2);
      expect(await shares.countUse(share.id, 'views', at(20))).toBeNull();
      const lifted = await shares.update(share.id, { expiresAt: null, passwordHash: null, maxDownloads: undefined });
      expect(lifted).toEqual({ ...share, views: 2, maxViews: null, maxDownloads: 4, expiresAt: null });
      expect(await shares.findById(share.id)).toEqual(lifted);
      expect((await shares.countUse(share.id, 'views', at(20)))!.views).toBe(3);
      expect(await shares.update(share.id, {})).toEqual({ ...lifted, views: 3 });
      expect(await shares.update('no-such-share', { maxViews: 2 })).toBeNull();
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

    it('claims the shares of the listed items of one type for one deletion only, and can claim again', async () => {
      const a = aShare({ type: 'file', itemId: 'a' });
      const b = aShare({ type: 'file', itemId: 'b' });
      const c = aShare({ type: 'file', itemId: 'c' });
      const folderA = aShare({ type: 'folder', itemId: 'a' });
      for (const share of [a, b, c, folderA]) await shares.insert(share);
      const claimed = await shares.claimByItems('file', ['a', 'b', 'unknown'], 'r1');
      expect(sorted(ids(claimed))).toEqual(sorted([a.id, b.id]));
      expect(claimed.find((share) => share.id === a.id)).toEqual(a);
      // A second deletion gets only what no one claimed; the first, asked again, still holds its own.
      expect(ids(await shares.claimByItems('file', ['b', 'c'], 'r2'))).toEqual([c.id]);
      expect(sorted(ids(await shares.claimByItems('file', ['a', 'b', 'c'], 'r1')))).toEqual(sorted([a.id, b.id]));
      expect(await shares.claimByItems('file', [], 'r1')).toEqual([]);
      expect(sorted(ids(await shares.claimedBy('r1')))).toEqual(sorted([a.id, b.id]));
      expect(ids(await shares.claimedBy('r2'))).toEqual([c.id]);
      expect(await shares.claimedBy('r3')).toEqual([]);
      expect(await shares.findById(folderA.id)).toEqual(folderA);
    });

    it('claims one share by its id: its claimer gets it again, any other deletion nothing', async () => {
      const share = aShare({ type: 'paste', itemId: 'p' });
      await shares.insert(share);
      expect(await shares.claim(share.id, share.id)).toEqual(share);
      expect(await shares.claim(share.id, share.id)).toEqual(share);
      expect(await shares.claim(share.id, 'other')).toBeNull();
      expect(await shares.claimByItems('paste', ['p'], 'other')).toEqual([]);
      expect(await shares.claim('no-such-share', 'r')).toBeNull();
      expect(ids(await shares.claimedBy(share.id))).toEqual([share.id]);
      expect(await shares.claimedBy('other')).toEqual([]);
    });

    it('gives each of many concurrent claims of the same shares a part that adds up to each share once', async () => {
      const all = Array.from({ length: 20 }, (_, i) => aShare({ type: 'folder', itemId: `f-${i}` }));
      for (const share of all) await shares.insert(share);
      const items = all.map((share) => share.itemId);
      const claims = await Promise.all([
        ...Array.from({ length: 4 }, (_, i) => shares.claimByItems('folder', items, `r${i}`)),
        ...all.slice(0, 5).map((share) => shares.claim(share.id, share.id).then((one) => (one ? [one] : []))),
      ]);
      expect(sorted(claims.flatMap(ids))).toEqual(sorted(ids(all)));
    });

    it('hides a claimed share from every read and write but its claimer’s, and keeps its item taken', async () => {
      const share = aShare({ type: 'file', itemId: 'a', views: 1 });
      const other = aShare({ type: 'file', itemId: 'b' });
      await shares.insert(share);
      await shares.insert(other);
      await shares.claimByItems('file', ['a'], 'r1');
      expect(await shares.findById(share.id)).toBeNull();
      expect(await shares.findByItem('file', 'a')).toBeNull();
      expect(Object.fromEntries(await shares.idsForItems('file', ['a', 'b']))).toEqual({ b: other.id });
      expect(ids(await shares.listByOwner('owner-1'))).toEqual([other.id]);
      expect(await shares.countUse(share.id, 'views', at(5))).toBeNull();
      const open = { counter: 'views' as const, now: at(5), readerId: null, types: ['file' as const] };
      expect(await shares.countOpenUse(share.id, open)).toBeNull();
      await shares.uncountUse(share.id, 'views');
      expect(await shares.update(share.id, { maxViews: 3 })).toBeNull();
      expect(await shares.delete(share.id)).toBeNull();
      // One share per item still: the claimed one holds its item until its deletion deletes it.
      expect(await shares.insert(aShare({ type: 'file', itemId: 'a' }))).toBe(false);
      // Unchanged for its claimer, who still knows whose it is.
      expect(await shares.claimedBy('r1')).toEqual([share]);
      expect(await shares.ownerOf(share.id)).toBe('owner-1');
      expect(await shares.ownerOf('no-such-share')).toBeNull();
    });

    it('deletes only what one deletion claimed, once, returning it, and frees the items', async () => {
      const a = aShare({ type: 'file', itemId: 'a' });
      const b = aShare({ type: 'file', itemId: 'b' });
      const c = aShare({ type: 'file', itemId: 'c' });
      for (const share of [a, b, c]) await shares.insert(share);
      await shares.claimByItems('file', ['a', 'b'], 'r1');
      await shares.claim(c.id, c.id);
      const deleted = await shares.deleteClaimed('r1');
      expect(sorted(ids(deleted))).toEqual(sorted([a.id, b.id]));
      expect(deleted.find((share) => share.id === b.id)).toEqual(b);
      expect(await shares.deleteClaimed('r1')).toEqual([]);
      expect(await shares.claimedBy('r1')).toEqual([]);
      expect(await shares.ownerOf(a.id)).toBeNull();
      expect(ids(await shares.claimedBy(c.id))).toEqual([c.id]);
      expect(await shares.insert(aShare({ type: 'file', itemId: 'a' }))).toBe(true);
      expect(await shares.deleteClaimed(c.id)).toEqual([c]);
      expect(await shares.findByItem('file', 'c')).toBeNull();
    });

    it("deletes every share of an owner, claimed or not, and no one else's", async () => {
      const a = aShare({ type: 'file', itemId: 'a' });
      const b = aShare({ type: 'file', itemId: 'b' });
      const kept = aShare({ type: 'file', itemId: 'c', ownerId: 'owner-2' });
      for (const share of [a, b, kept]) await shares.insert(share);
      await shares.claim(a.id, 'r1');
      expect(sorted(await shares.deleteByOwner('owner-1'))).toEqual(sorted([a.id, b.id]));
      expect(await shares.claimedBy('r1')).toEqual([]);
      expect(await shares.ownerOf(a.id)).toBeNull();
      expect(await shares.findById(kept.id)).toEqual(kept);
      expect(await shares.deleteByOwner('owner-1')).toEqual([]);
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
      (await shares.countUse(original.id, 'views', at(0)))!.views = 70;
      (await shares.update(original.id, { passwordHash: 'h' }))!.itemId = 'x';
      const expiry = at(30);
      await shares.update(original.id, { expiresAt: expiry });
      expiry.setTime(0);
      (await shares.findById(original.id))!.expiresAt!.setTime(0);
      expect(await shares.findById(original.id)).toEqual({ ...original, views: 1, expiresAt: at(30) });
    });
  });
}
