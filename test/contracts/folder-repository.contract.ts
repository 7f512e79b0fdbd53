import { beforeEach, describe, expect, it } from 'vitest';
import type { FolderRepository } from '../../src/application/ports/index.js';
import { MAX_STORED_DEPTH } from '../../src/domain/index.js';
import { aFolder, at, ids } from './fixtures.js';

const sorted = (values: string[]) => [...values].sort();

/** Every FolderRepository adapter runs this. `make` must return an adapter over empty storage. */
export function folderRepositoryContract(name: string, make: () => Promise<FolderRepository>): void {
  describe(name, () => {
    let folders: FolderRepository;
    beforeEach(async () => {
      folders = await make();
    });

    /** a ─ b ─ d ─ e, a ─ c ─ f, plus a second root g; all of owner-1. */
    async function insertTree(): Promise<void> {
      await folders.insert(aFolder({ id: 'a', name: 'A', parentId: null }));
      await folders.insert(aFolder({ id: 'b', name: 'B', parentId: 'a' }));
      await folders.insert(aFolder({ id: 'c', name: 'C', parentId: 'a' }));
      await folders.insert(aFolder({ id: 'd', name: 'D', parentId: 'b' }));
      await folders.insert(aFolder({ id: 'e', name: 'E', parentId: 'd' }));
      await folders.insert(aFolder({ id: 'f', name: 'F', parentId: 'c' }));
      await folders.insert(aFolder({ id: 'g', name: 'G', parentId: null }));
    }

    it('stores a folder and finds it by id; an unknown id is null', async () => {
      const folder = aFolder({ parentId: 'p1' });
      await folders.insert(folder);
      expect(await folders.findById(folder.id)).toEqual(folder);
      expect(await folders.findById('no-such-folder')).toBeNull();
    });

    it("finds many of the owner's live folders by id at once, each once, leaving out unknown, foreign and marked ones", async () => {
      await insertTree();
      await folders.insert(aFolder({ id: 'x', ownerId: 'owner-2', parentId: null }));
      await folders.markDeleting('owner-1', 'c');
      const found = await folders.findMany('owner-1', ['e', 'a', 'e', 'x', 'c', 'missing']);
      expect(sorted(ids(found))).toEqual(['a', 'e']);
      expect(found.find((folder) => folder.id === 'e')).toEqual(await folders.findById('e'));
      expect(await folders.findMany('owner-1', [])).toEqual([]);
      expect(ids(await folders.findMany('owner-2', ['x', 'a']))).toEqual(['x']);
    });

    it('rejects a second folder with the same id and keeps the first', async () => {
      const first = aFolder({ id: 'dup', name: 'first' });
      await folders.insert(first);
      await expect(folders.insert(aFolder({ id: 'dup', name: 'second', parentId: 'p1' }))).rejects.toThrow();
      expect(await folders.findById('dup')).toEqual(first);
      expect(await folders.listChildren('owner-1', ['p1'], 10)).toEqual([]);
    });

    it('updates only the given fields and returns the folder after the change', async () => {
      const folder = aFolder({ name: 'old', parentId: 'p1' });
      await folders.insert(folder);
      const renamed = await folders.update(folder.id, { name: 'new', updatedAt: at(1) });
      expect(renamed).toEqual({ ...folder, name: 'new', updatedAt: at(1) });
      const moved = await folders.update(folder.id, { parentId: null, updatedAt: at(2) });
      expect(moved).toEqual({ ...folder, name: 'new', parentId: null, updatedAt: at(2) });
      expect(await folders.findById(folder.id)).toEqual(moved);
      expect(await folders.update('no-such-folder', { name: 'x', updatedAt: at(3) })).toBeNull();
    });

    it('lists, counts, searches and walks a moved folder in its new place only', async () => {
      await insertTree();
      await folders.update('d', { parentId: 'c', name: 'Moved', updatedAt: at(1) });
      expect(ids(await folders.listChildren('owner-1', ['b'], 10))).toEqual([]);
      expect(ids(await folders.listChildren('owner-1', ['c'], 10))).toEqual(['f', 'd']);
      const counts = await folders.countChildren('owner-1', ['b', 'c']);
      expect(counts.get('b') ?? 0).toBe(0);
      expect(counts.get('c')).toBe(2);
      expect(ids(await folders.search('owner-1', 'moved', ['c'], 10))).toEqual(['d']);
      expect(await folders.search('owner-1', 'moved', ['b'], 10)).toEqual([]);
      expect(await folders.chain('e')).toEqual(['a', 'c', 'd', 'e']);
      expect(sorted(ids(await folders.listSubtree('owner-1', 'c', 10)))).toEqual(['d', 'e', 'f']);
      expect(await folders.listSubtree('owner-1', 'b', 10)).toEqual([]);
    });

    it('deletes the listed folders and says how many existed', async () => {
      await insertTree();
      expect(await folders.deleteMany(['d', 'e', 'e', 'missing'])).toBe(2);
      expect(await folders.deleteMany(['d'])).toBe(0);
      expect(await folders.deleteMany([])).toBe(0);
      expect(await folders.findById('d')).toBeNull();
      expect(await folders.findById('e')).toBeNull();
      expect(await folders.chain('e')).toEqual([]);
      expect(await folders.listChildren('owner-1', ['b'], 10)).toEqual([]);
      expect(sorted(ids(await folders.listSubtree('owner-1', 'a', 10)))).toEqual(['b', 'c', 'f']);
      expect(sorted(ids(await folders.listByOwner('owner-1')))).toEqual(['a', 'b', 'c', 'f', 'g']);
      expect(await folders.search('owner-1', 'e', null, 10)).toEqual([]);
    });

    it('lists the folders directly under the parents, by name without case then id, at most limit', async () => {
      await folders.insert(aFolder({ id: 'r-2', name: 'banana', parentId: null }));
      await folders.insert(aFolder({ id: 'r-3', name: 'apple', parentId: null }));
      await folders.insert(aFolder({ id: 'r-1', name: 'Apple', parentId: null }));
      await folders.insert(aFolder({ id: 'p-1', name: 'Cherry', parentId: 'p' }));
      await folders.insert(aFolder({ id: 'p-2', name: 'aardvark', parentId: 'p' }));
      await folders.insert(aFolder({ id: 'q-1', name: 'aaa', parentId: 'q' }));
      await folders.insert(aFolder({ id: 'x-1', name: 'aa', ownerId: 'owner-2', parentId: null }));
      await folders.insert(aFolder({ id: 'x-2', name: 'aa', ownerId: 'owner-2', parentId: 'p' }));

      expect(ids(await folders.listChildren('owner-1', [null], 10))).toEqual(['r-1', 'r-3', 'r-2']);
      expect(ids(await folders.listChildren('owner-1', ['p'], 10))).toEqual(['p-2', 'p-1']);
      expect(ids(await folders.listChildren('owner-1', ['p', null], 10))).toEqual(['p-2', 'r-1', 'r-3', 'r-2', 'p-1']);
      expect(ids(await folders.listChildren('owner-1', ['p', null], 2))).toEqual(['p-2', 'r-1']);
      expect(ids(await folders.listChildren('owner-1', ['p', 'p', null, null], 10))).toHaveLength(5);
      expect(await folders.listChildren('owner-1', ['unknown'], 10)).toEqual([]);
      expect(await folders.listChildren('owner-1', [], 10)).toEqual([]);
      expect(ids(await folders.listChildren('owner-2', [null, 'p'], 10))).toEqual(['x-1', 'x-2']);
    });

    it('counts the subfolders directly under each folder, for the owner only', async () => {
      await insertTree();
      await folders.insert(aFolder({ ownerId: 'owner-2', parentId: 'a' }));
      const counts = await folders.countChildren('owner-1', ['a', 'b', 'e', 'unknown']);
      expect(counts.get('a')).toBe(2);
      expect(counts.get('b')).toBe(1);
      expect(counts.get('e') ?? 0).toBe(0);
      expect(counts.get('unknown') ?? 0).toBe(0);
      expect((await folders.countChildren('owner-2', ['a'])).get('a')).toBe(1);
    });

    it('lists every folder below a folder, not the folder itself, at most limit', async () => {
      await insertTree();
      const subtree = await folders.listSubtree('owner-1', 'a', 100);
      expect(sorted(ids(subtree))).toEqual(['b', 'c', 'd', 'e', 'f']);
      expect(subtree.find((folder) => folder.id === 'd')).toEqual(await folders.findById('d'));
      expect(sorted(ids(await folders.listSubtree('owner-1', 'b', 100)))).toEqual(['d', 'e']);
      expect(await folders.listSubtree('owner-1', 'e', 100)).toEqual([]);
      expect(await folders.listSubtree('owner-1', 'unknown', 100)).toEqual([]);
      expect(await folders.listSubtree('owner-2', 'a', 100)).toEqual([]);

      const bounded = ids(await folders.listSubtree('owner-1', 'a', 3));
      expect(bounded).toHaveLength(3);
      expect(new Set(bounded).size).toBe(3);
      for (const id of bounded) expect(['b', 'c', 'd', 'e', 'f']).toContain(id);
      const one = await folders.listSubtree('owner-1', 'a', 1);
      expect(one).toHaveLength(1);
      expect(['b', 'c']).toContain(one[0]!.id);
    });

    it('walks the chain from the top-level ancestor down to the folder itself', async () => {
      await insertTree();
      expect(await folders.chain('e')).toEqual(['a', 'b', 'd', 'e']);
      expect(await folders.chain('f')).toEqual(['a', 'c', 'f']);
      expect(await folders.chain('a')).toEqual(['a']);
      expect(await folders.chain('unknown')).toEqual([]);
    });

    it('searches names case-insensitively, literally, within the account or the listed parents', async () => {
      await folders.insert(aFolder({ id: 's-1', name: 'Projects 2026', parentId: null }));
      await folders.insert(aFolder({ id: 's-2', name: 'old PROJECTS', parentId: 's-1' }));
      await folders.insert(aFolder({ id: 's-3', name: 'projects', parentId: 's-2' }));
      await folders.insert(aFolder({ id: 's-4', name: 'a.b (c)', parentId: null }));
      await folders.insert(aFolder({ id: 's-5', name: 'axb c', parentId: null }));
      await folders.insert(aFolder({ id: 's-6', name: 'projects', ownerId: 'owner-2', parentId: null }));
      expect(ids(await folders.search('owner-1', 'PROJECTS', null, 10))).toEqual(['s-2', 's-3', 's-1']);
      expect(ids(await folders.search('owner-1', 'projects', null, 2))).toEqual(['s-2', 's-3']);
      expect(ids(await folders.search('owner-1', 'projects', [null], 10))).toEqual(['s-1']);
      expect(ids(await folders.search('owner-1', 'projects', ['s-1', 's-2'], 10))).toEqual(['s-2', 's-3']);
      expect(ids(await folders.search('owner-1', 'a.b (c)', null, 10))).toEqual(['s-4']);
      expect(await folders.search('owner-1', '.*', null, 10)).toEqual([]);
      expect(await folders.search('owner-1', 'projects', [], 10)).toEqual([]);
      expect(ids(await folders.search('owner-2', 'projects', null, 10))).toEqual(['s-6']);
    });

    it("lists every folder of the owner and no one else's", async () => {
      await insertTree();
      await folders.insert(aFolder({ ownerId: 'owner-2' }));
      expect(sorted(ids(await folders.listByOwner('owner-1')))).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
      expect(await folders.listByOwner('owner-3')).toEqual([]);
    });

    it('applies a patch with whileIn only while the folder still sits there', async () => {
      await insertTree();
      expect(await folders.update('d', { parentId: 'c', updatedAt: at(1), whileIn: 'a' })).toBeNull();
      expect(await folders.update('d', { parentId: 'c', updatedAt: at(1), whileIn: null })).toBeNull();
      expect((await folders.findById('d'))?.parentId).toBe('b');
      expect((await folders.update('d', { parentId: 'c', updatedAt: at(2), whileIn: 'b' }))?.parentId).toBe('c');
      expect((await folders.update('g', { name: 'G2', updatedAt: at(3), whileIn: null }))?.name).toBe('G2');
    });

    it('marks a folder as being deleted: hidden from every read but chain and listByOwner, closed to writes', async () => {
      await insertTree();
      await folders.insert(aFolder({ id: 'x', ownerId: 'owner-2', parentId: null }));
      expect(await folders.markDeleting('owner-2', 'b')).toBe(false);
      expect(await folders.markDeleting('owner-1', 'missing')).toBe(false);
      expect(await folders.markDeleting('owner-1', 'b')).toBe(true);
      expect(await folders.markDeleting('owner-1', 'b')).toBe(true);

      expect(await folders.findById('b')).toBeNull();
      expect(await folders.update('b', { name: 'x', updatedAt: at(1) })).toBeNull();
      expect(ids(await folders.listChildren('owner-1', ['a'], 10))).toEqual(['c']);
      expect((await folders.countChildren('owner-1', ['a'])).get('a')).toBe(1);
      expect(await folders.search('owner-1', 'b', null, 10)).toEqual([]);
      // Nothing below a marked folder is in a subtree either, though it is not marked itself yet.
      expect(sorted(ids(await folders.listSubtree('owner-1', 'a', 10)))).toEqual(['c', 'f']);
      expect(sorted(ids(await folders.listSubtree('owner-1', 'b', 10)))).toEqual(['d', 'e']);
      expect(await folders.findById('d')).not.toBeNull();

      expect(await folders.chain('e')).toEqual(['a', 'b', 'd', 'e']);
      expect(await folders.chain('b')).toEqual(['a', 'b']);
      expect(sorted(ids(await folders.listByOwner('owner-1')))).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
      expect(await folders.deleteMany(['b', 'c'])).toBe(2);
      expect(await folders.chain('e')).toEqual(['d', 'e']);
    });

    it('marks the folders directly under the parents, each as it sits then, and names every marked one', async () => {
      await insertTree();
      await folders.insert(aFolder({ id: 'x', ownerId: 'owner-2', parentId: 'a' }));
      await folders.markDeleting('owner-1', 'a');
      expect(sorted(await folders.markChildrenDeleting('owner-1', ['a']))).toEqual(['b', 'c']);
      expect(await folders.findById('b')).toBeNull();
      expect(await folders.findById('d')).not.toBeNull();
      expect(await folders.findById('x')).not.toBeNull();
      // Marked before or now, all are named; a folder moved away before its turn is left alone.
      await folders.update('f', { parentId: 'g', updatedAt: at(1) });
      await folders.insert(aFolder({ id: 'h', parentId: 'b' }));
      expect(sorted(await folders.markChildrenDeleting('owner-1', ['b', 'c', 'b']))).toEqual(['d', 'h']);
      expect(sorted(await folders.markChildrenDeleting('owner-1', ['a']))).toEqual(['b', 'c']);
      expect(await folders.findById('f')).not.toBeNull();
      expect(await folders.markChildrenDeleting('owner-1', [])).toEqual([]);
      expect(await folders.markChildrenDeleting('owner-1', ['e'])).toEqual([]);
      expect(sorted(ids(await folders.listByOwner('owner-1')))).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    });

    it('walks a stored cycle and a stored chain beyond any depth and always ends', async () => {
      // What no use case makes, but an old race or a hand edit could leave: a and b each the other's parent, c its own.
      await folders.insert(aFolder({ id: 'a', parentId: 'b' }));
      await folders.insert(aFolder({ id: 'b', parentId: 'a' }));
      await folders.insert(aFolder({ id: 'c', parentId: 'c' }));
      await folders.insert(aFolder({ id: 'k', parentId: 'a' }));
      expect(await folders.chain('a')).toEqual(['b', 'a']);
      expect(await folders.chain('k')).toEqual(['b', 'a', 'k']);
      expect(await folders.chain('c')).toEqual(['c']);
      expect(sorted(ids(await folders.listSubtree('owner-1', 'a', 10)))).toEqual(['b', 'k']);
      expect(await folders.listSubtree('owner-1', 'c', 10)).toEqual([]);
      expect(sorted(await folders.markChildrenDeleting('owner-1', ['a', 'b']))).toEqual(['a', 'b', 'k']);

      const depth = MAX_STORED_DEPTH + 10;
      for (let i = 0; i < depth; i++) await folders.insert(aFolder({ id: `d${i}`, parentId: i === 0 ? null : `d${i - 1}` }));
      const chain = await folders.chain(`d${depth - 1}`);
      expect(chain).toHaveLength(MAX_STORED_DEPTH);
      expect(chain.at(-1)).toBe(`d${depth - 1}`);
      expect(await folders.listSubtree('owner-1', 'd0', depth)).toHaveLength(depth - 1);
    });

    it('lends each owner one move lease at a time, until its time runs out or its holder gives it back', async () => {
      expect(await folders.acquireMoveLease('owner-1', 'h1', at(10), at(0))).toBe(true);
      expect(await folders.acquireMoveLease('owner-1', 'h2', at(10), at(0))).toBe(false);
      expect(await folders.acquireMoveLease('owner-1', 'h2', at(15), at(9))).toBe(false);
      expect(await folders.acquireMoveLease('owner-2', 'h3', at(10), at(0))).toBe(true);
      await folders.releaseMoveLease('owner-1', 'h2');
      expect(await folders.acquireMoveLease('owner-1', 'h2', at(10), at(1))).toBe(false);
      await folders.releaseMoveLease('owner-1', 'h1');
      expect(await folders.acquireMoveLease('owner-1', 'h2', at(20), at(1))).toBe(true);
      // A holder that never gives it back (it died) loses it once its time is up, and then cannot give it back.
      expect(await folders.acquireMoveLease('owner-1', 'h4', at(30), at(20))).toBe(true);
      await folders.releaseMoveLease('owner-1', 'h2');
      expect(await folders.acquireMoveLease('owner-1', 'h5', at(30), at(21))).toBe(false);
    });

    it('lets exactly one of many racing holders take a free or expired lease', async () => {
      const race = (now: number) =>
        Promise.all(Array.from({ length: 10 }, (_, i) => folders.acquireMoveLease('owner-1', `r${now}-${i}`, at(now + 5), at(now))));
      expect((await race(0)).filter(Boolean)).toHaveLength(1);
      expect((await race(5)).filter(Boolean)).toHaveLength(1);
    });

    it('keeps its own copies: mutating what went in or came out changes nothing stored', async () => {
      await insertTree();
      const folder = aFolder({ id: 'copy', name: 'copy', parentId: 'a' });
      const original = structuredClone(folder);
      await folders.insert(folder);
      folder.name = 'changed';
      folder.parentId = null;
      folder.createdAt.setTime(0);
      expect(await folders.findById('copy')).toEqual(original);

      (await folders.findById('copy'))!.name = 'x';
      (await folders.listChildren('owner-1', ['a'], 10)).forEach((child) => (child.parentId = null));
      (await folders.listSubtree('owner-1', 'a', 10)).forEach((child) => child.updatedAt.setTime(0));
      (await folders.search('owner-1', 'copy', null, 10))[0]!.ownerId = 'owner-2';
      (await folders.listByOwner('owner-1')).forEach((child) => (child.name = 'y'));
      expect(await folders.findById('copy')).toEqual(original);
      expect(await folders.chain('copy')).toEqual(['a', 'copy']);

      const patchedAt = at(4);
      const updated = (await folders.update('copy', { name: 'renamed', updatedAt: patchedAt }))!;
      patchedAt.setTime(0);
      updated.parentId = null;
      expect(await folders.findById('copy')).toEqual({ ...original, name: 'renamed', updatedAt: at(4) });
    });

    it('lets a folder being deleted be claimed by one removal only, and deletes what that removal claimed', async () => {
      await insertTree();
      expect(await folders.claimDeleting(['a', 'b'], 'r1')).toEqual([]);
      await folders.markDeleting('owner-1', 'a');
      await folders.markChildrenDeleting('owner-1', ['a']);
      expect(sorted(await folders.claimDeleting(['a', 'b', 'g', 'missing'], 'r1'))).toEqual(['a', 'b']);
      expect(await folders.claimDeleting(['b', 'c'], 'r2')).toEqual(['c']);
      expect(sorted(await folders.claimedBy('r1'))).toEqual(['a', 'b']);
      expect(await folders.claimDeleting([], 'r1')).toEqual([]);
      expect(await folders.deleteClaimed('r1')).toBe(2);
      expect(await folders.deleteClaimed('r1')).toBe(0);
      expect(await folders.claimedBy('r1')).toEqual([]);
      expect(sorted(ids(await folders.listByOwner('owner-1')))).toEqual(['c', 'd', 'e', 'f', 'g']);
      expect(await folders.deleteMany(['c'])).toBe(1);
      expect(await folders.claimedBy('r2')).toEqual([]);
    });
  });
}
