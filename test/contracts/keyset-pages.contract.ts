import { beforeEach, describe, expect, it } from 'vitest';
import {
  sortName,
  type CollectionRepository,
  type CreatedKey,
  type FileRepository,
  type FolderRef,
  type FolderRepository,
  type NameKey,
  type PasteRepository,
  type TokenRepository,
} from '../../src/application/ports/index.js';
import { aCollection, aFile, aFolder, aPaste, aToken, at, ids } from './fixtures.js';

/** The repositories whose listings page by keyset; `make` builds all of them over one empty storage. */
export interface PagedRepositories {
  files: FileRepository;
  folders: FolderRepository;
  pastes: PasteRepository;
  collections: CollectionRepository;
  tokens: TokenRepository;
}

const nameKey = (item: { name: string; id: string }): NameKey => ({ lower: sortName(item.name), id: item.id });
const createdKey = (item: { createdAt: Date; id: string }): CreatedKey => ({ createdAt: item.createdAt, id: item.id });

/** A small deterministic generator, so a failing walk fails the same way every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Follows pages of `size` until one is short, running `between` after each page; returns every id handed out, in
 * the order handed out.
 */
async function walk<T extends { id: string }, K>(
  page: (after: K | null, limit: number) => Promise<T[]>,
  keyOf: (item: T) => K,
  size: number,
  between: (pageNo: number) => Promise<void> = async () => undefined,
): Promise<string[]> {
  const seen: string[] = [];
  let after: K | null = null;
  for (let pageNo = 0; pageNo < 10_000; pageNo++) {
    const items = await page(after, size);
    expect(items.length).toBeLessThanOrEqual(size);
    seen.push(...ids(items));
    if (items.length < size) return seen;
    after = keyOf(items.at(-1)!);
    await between(pageNo);
  }
  throw new Error('the walk did not end');
}

/** Names whose lower-cased order differs between code units and bytes, or whose case folding changes their length. */
const ODD_NAMES = ['Zeta', 'alpha', 'ALPHA', 'Ärger', 'émigré', '日本語', '🙂 smile', '\uE000 private', '\uFFFD',
  'İstanbul', 'ß', 'a'.repeat(255), 'a', 'A', '$where', '{"$gt":""}', 'x.y', '_', '-', '0'];

/** Every adapter of the five repositories runs this (test/contracts/memory.test.ts and mongodb.test.ts). */
export function keysetPagesContract(name: string, make: () => Promise<PagedRepositories>): void {
  describe(`${name}: keyset pages`, () => {
    let r: PagedRepositories;
    beforeEach(async () => {
      r = await make();
    });

    it('pages the files directly in one place by name without case then id, strictly after the key', async () => {
      await r.files.insert(aFile({ id: 'r-2', name: 'banana' }));
      await r.files.insert(aFile({ id: 'r-3', name: 'apple' }));
      await r.files.insert(aFile({ id: 'r-1', name: 'Apple' }));
      await r.files.insert(aFile({ id: 'p-1', name: 'aardvark', folderId: 'p' }));
      await r.files.insert(aFile({ id: 'x-1', name: 'aa', ownerId: 'owner-2' }));
      const page = (folderId: FolderRef, after: NameKey | null, limit = 10, owner = 'owner-1') =>
        r.files.pageInFolder(owner, folderId, after, limit).then(ids);

      expect(await page(null, null)).toEqual(['r-1', 'r-3', 'r-2']);
      expect(await page(null, { lower: 'apple', id: 'r-1' })).toEqual(['r-3', 'r-2']);
      expect(await page(null, { lower: 'apple', id: 'r-3' })).toEqual(['r-2']);
      expect(await page(null, { lower: 'banana', id: 'r-2' })).toEqual([]);
      // A key is a position: no record needs to have it.
      expect(await page(null, { lower: 'apple', id: 'r-0' })).toEqual(['r-1', 'r-3', 'r-2']);
      expect(await page(null, { lower: 'apple', id: 'r-2' })).toEqual(['r-3', 'r-2']);
      expect(await page(null, { lower: 'azz', id: 'a' })).toEqual(['r-2']);
      expect(await page(null, { lower: '', id: 'a' })).toEqual(['r-1', 'r-3', 'r-2']);
      expect(await page(null, null, 2)).toEqual(['r-1', 'r-3']);
      expect(await page(null, null, 0)).toEqual([]);
      expect(await page('p', null)).toEqual(['p-1']);
      expect(await page('p', { lower: 'aardvark', id: 'p-1' })).toEqual([]);
      expect(await page('unknown', null)).toEqual([]);
      expect(await page(null, null, 10, 'owner-2')).toEqual(['x-1']);
    });

    it('pages the folders directly under one parent likewise, leaving out folders being deleted', async () => {
      await r.folders.insert(aFolder({ id: 'r-2', name: 'banana' }));
      await r.folders.insert(aFolder({ id: 'r-3', name: 'apple' }));
      await r.folders.insert(aFolder({ id: 'r-1', name: 'Apple' }));
      await r.folders.insert(aFolder({ id: 'r-4', name: 'cherry' }));
      await r.folders.insert(aFolder({ id: 'p-1', name: 'aardvark', parentId: 'r-2' }));
      await r.folders.insert(aFolder({ id: 'x-1', name: 'aa', ownerId: 'owner-2' }));
      expect(await r.folders.markDeleting('owner-1', 'r-4')).toBe(true);
      const page = (parentId: FolderRef, after: NameKey | null, limit = 10, owner = 'owner-1') =>
        r.folders.pageChildren(owner, parentId, after, limit).then(ids);

      expect(await page(null, null)).toEqual(['r-1', 'r-3', 'r-2']);
      expect(await page(null, { lower: 'apple', id: 'r-1' })).toEqual(['r-3', 'r-2']);
      expect(await page(null, { lower: 'apple', id: 'r-0' }, 2)).toEqual(['r-1', 'r-3']);
      expect(await page(null, { lower: 'banana', id: 'r-2' })).toEqual([]);
      expect(await page(null, null, 0)).toEqual([]);
      expect(await page('r-2', null)).toEqual(['p-1']);
      expect(await page(null, null, 10, 'owner-2')).toEqual(['x-1']);
    });

    it('pages pastes, collections and tokens of one type by createdAt then id, strictly after the key', async () => {
      const rows = [
        { id: 'c-c', createdAt: at(1) },
        { id: 'c-b', createdAt: at(2) },
        { id: 'c-a', createdAt: at(1) },
        { id: 'c-z', createdAt: at(0) },
      ];
      for (const row of rows) {
        await r.pastes.insert(aPaste(row));
        await r.collections.insert(aCollection(row));
        await r.tokens.insert(aToken({ ...row, userId: 'owner-1', type: 'uploader', expiresAt: null }));
      }
      await r.pastes.insert(aPaste({ id: 'o-1', ownerId: 'owner-2' }));
      await r.collections.insert(aCollection({ id: 'o-1', ownerId: 'owner-2' }));
      await r.tokens.insert(aToken({ id: 'o-1', userId: 'owner-2', type: 'uploader', expiresAt: null }));
      await r.tokens.insert(aToken({ id: 's-1', userId: 'owner-1', type: 'session', expiresAt: null, createdAt: at(1) }));

      type Pager = (owner: string, after: CreatedKey | null, limit: number) => Promise<{ id: string }[]>;
      const listings: Array<[string, Pager]> = [
        ['pastes', (owner, after, limit) => r.pastes.pageByOwner(owner, after, limit)],
        ['collections', (owner, after, limit) => r.collections.pageByOwner(owner, after, limit)],
        ['tokens', (owner, after, limit) => r.tokens.pageByUser(owner, 'uploader', after, limit)],
      ];
      for (const [listing, page] of listings) {
        const list = async (after: CreatedKey | null, limit = 10, owner = 'owner-1') =>
          [listing, ids(await page(owner, after, limit))];
        expect(await list(null)).toEqual([listing, ['c-z', 'c-a', 'c-c', 'c-b']]);
        expect(await list({ createdAt: at(1), id: 'c-a' })).toEqual([listing, ['c-c', 'c-b']]);
        expect(await list({ createdAt: at(1), id: 'c-b' })).toEqual([listing, ['c-c', 'c-b']]);
        expect(await list({ createdAt: at(0.5), id: 'zzz' })).toEqual([listing, ['c-a', 'c-c', 'c-b']]);
        expect(await list({ createdAt: at(2), id: 'c-b' })).toEqual([listing, []]);
        expect(await list(null, 2)).toEqual([listing, ['c-z', 'c-a']]);
        expect(await list(null, 0)).toEqual([listing, []]);
        expect(await list(null, 10, 'owner-2')).toEqual([listing, ['o-1']]);
        expect(await list(null, 10, 'owner-3')).toEqual([listing, []]);
      }
      expect(ids(await r.tokens.pageByUser('owner-1', 'session', null, 10))).toEqual(['s-1']);
    });

    it('walks every file and folder once with small pages, in its listing order, whatever the names', async () => {
      const rnd = random(7);
      const names = [...ODD_NAMES, ...ODD_NAMES.map((n) => n.toUpperCase()), ...ODD_NAMES.slice(0, 5)];
      for (const [i, n] of names.entries()) {
        const id = `k-${String(Math.floor(rnd() * 1e6)).padStart(6, '0')}-${i}`;
        await r.files.insert(aFile({ id, name: n }));
        await r.folders.insert(aFolder({ id, name: n }));
      }
      for (const size of [1, 3, 7, 100]) {
        const pageFiles = (after: NameKey | null, limit: number) => r.files.pageInFolder('owner-1', null, after, limit);
        const files = await walk(pageFiles, nameKey, size);
        expect(files).toEqual(ids(await r.files.listInFolders('owner-1', [null], 1000)));
        const pageFolders = (after: NameKey | null, limit: number) =>
          r.folders.pageChildren('owner-1', null, after, limit);
        const folders = await walk(pageFolders, nameKey, size);
        expect(folders).toEqual(ids(await r.folders.listChildren('owner-1', [null], 1000)));
        expect(new Set(folders).size).toBe(names.length);
      }
    });

    it('hands out every record that stays through a walk exactly once, while others come and go', async () => {
      const rnd = random(42);
      const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!;
      const letters = 'abcdefghijklmnopqrstuvwxyz';
      const aName = () => Array.from({ length: 3 }, () => pick([...letters])).join('');
      const present = new Set<string>();
      const deleted = new Set<string>();
      let serial = 0;
      const addFile = async () => {
        const file = aFile({ id: `w-${serial++}`, name: aName() });
        await r.files.insert(file);
        present.add(file.id);
      };
      const addPaste = async () => {
        // Creation times are not always later than the cursor: another instance's clock may lag.
        const paste = aPaste({ id: `w-${serial++}`, createdAt: at(Math.floor(rnd() * 200)) });
        await r.pastes.insert(paste);
        present.add(paste.id);
      };
      const churn = (add: () => Promise<void>, remove: (id: string) => Promise<unknown>) => async () => {
        for (let i = 0; i < 3; i++) await add();
        for (let i = 0; i < 2; i++) {
          const id = pick([...present]);
          await remove(id);
          present.delete(id);
          deleted.add(id);
        }
      };

      for (let i = 0; i < 60; i++) await addFile();
      const initialFiles = new Set(present);
      const files = await walk(
        (after: NameKey | null, limit) => r.files.pageInFolder('owner-1', null, after, limit),
        nameKey,
        4,
        churn(addFile, (id) => r.files.delete(id)),
      );
      present.clear();
      for (let i = 0; i < 60; i++) await addPaste();
      const initialPastes = new Set(present);
      const pastes = await walk(
        (after: CreatedKey | null, limit) => r.pastes.pageByOwner('owner-1', after, limit),
        createdKey,
        4,
        churn(addPaste, (id) => r.pastes.delete(id)),
      );

      for (const [seen, initial] of [[files, initialFiles], [pastes, initialPastes]] as const) {
        expect(new Set(seen).size).toBe(seen.length);
        const stayed = [...initial].filter((id) => !deleted.has(id));
        expect(stayed.length).toBeGreaterThan(30);
        expect(stayed.filter((id) => !seen.includes(id))).toEqual([]);
      }
    });

    it('hands out copies: changing a record of a page changes nothing stored', async () => {
      await r.files.insert(aFile({ id: 'f-1', name: 'one' }));
      await r.pastes.insert(aPaste({ id: 'p-1', content: 'kept' }));
      (await r.files.pageInFolder('owner-1', null, null, 10))[0]!.name = 'changed';
      (await r.pastes.pageByOwner('owner-1', null, 10))[0]!.content = 'changed';
      expect((await r.files.findById('f-1'))!.name).toBe('one');
      expect((await r.pastes.findById('p-1'))!.content).toBe('kept');
    });
  });
}
