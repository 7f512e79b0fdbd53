import { beforeEach, describe, expect, it } from 'vitest';
import type { FileRepository } from '../../src/application/ports/index.js';
import { aFile, at, ids } from './fixtures.js';

const sorted = (values: string[]) => [...values].sort();

/** Every FileRepository adapter runs this. `make` must return an adapter over empty storage. */
export function fileRepositoryContract(name: string, make: () => Promise<FileRepository>): void {
  describe(name, () => {
    let files: FileRepository;
    beforeEach(async () => {
      files = await make();
    });

    it('replaces a file\'s bytes only while it points at the bytes named and no removal claimed it', async () => {
      const file = aFile({ folderId: 'f1', blobKey: 'old-key', size: 3 });
      await files.insert(file);
      const content = { blobKey: 'new-key', size: 9, mime: 'text/plain', charset: 'utf-8' as const, updatedAt: at(3) };
      const replaced = await files.replaceContent(file.id, 'old-key', content);
      expect(replaced).toMatchObject({ id: file.id, folderId: 'f1', name: file.name, ...content, revision: 1 });
      expect(await files.findById(file.id)).toEqual(replaced);
      // The same replace again no longer finds the old bytes: of two racing replaces, one lands.
      expect(await files.replaceContent(file.id, 'old-key', { ...content, blobKey: 'other' })).toBeNull();
      expect([...(await files.referencedBlobKeys(['old-key', 'new-key']))]).toEqual(['new-key']);
      await files.claim([file.id], 'removal');
      expect(await files.replaceContent(file.id, 'new-key', { ...content, blobKey: 'third' })).toBeNull();
      expect(await files.replaceContent('missing', 'new-key', content)).toBeNull();
    });

    it('stores a file and finds it by id; an unknown id is null', async () => {
      const file = aFile({ folderId: 'f1', size: 1_048_576, uploaderTokenId: 'token-7' });
      await files.insert(file);
      expect(await files.findById(file.id)).toEqual(file);
      expect(await files.update(file.id, { name: 'renamed', updatedAt: at(1) })).toMatchObject({
        uploaderTokenId: 'token-7',
      });
      expect(await files.findById('no-such-file')).toBeNull();
    });

    it('keeps an end-to-end encrypted file\'s sealed metadata through a write and a rename; others have none', async () => {
      const sealed = aFile({ encryptedMetadata: 'c2VhbGVkLW1ldGFkYXRh' });
      const plain = aFile();
      await files.insert(sealed);
      await files.insert(plain);
      expect(await files.findById(sealed.id)).toEqual(sealed);
      expect((await files.update(sealed.id, { name: 'renamed', updatedAt: at(1) }))?.encryptedMetadata).toBe('c2VhbGVkLW1ldGFkYXRh');
      expect((await files.findById(plain.id))?.encryptedMetadata ?? null).toBeNull();
    });

    it('rejects a second file with the same id and keeps the first', async () => {
      const first = aFile({ id: 'dup', name: 'first' });
      await files.insert(first);
      await expect(files.insert(aFile({ id: 'dup', name: 'second', folderId: 'f1' }))).rejects.toThrow();
      expect(await files.findById('dup')).toEqual(first);
      expect(await files.listInFolders('owner-1', ['f1'], 10)).toEqual([]);
    });

    it('finds the existing files among many ids, each once', async () => {
      const a = aFile();
      const b = aFile({ ownerId: 'owner-2' });
      await files.insert(a);
      await files.insert(b);
      await files.insert(aFile());
      const found = await files.findByIds([b.id, 'missing', a.id, a.id]);
      expect(sorted(ids(found))).toEqual(sorted([a.id, b.id]));
      expect(found.find((file) => file.id === b.id)).toEqual(b);
      expect(await files.findByIds([])).toEqual([]);
    });

    it('updates only the given fields and returns the file after the change', async () => {
      const file = aFile({ name: 'old.txt', folderId: 'f1' });
      await files.insert(file);
      const renamed = await files.update(file.id, { name: 'new.txt', updatedAt: at(1) });
      expect(renamed).toEqual({ ...file, name: 'new.txt', updatedAt: at(1) });
      const moved = await files.update(file.id, { folderId: null, updatedAt: at(2) });
      expect(moved).toEqual({ ...file, name: 'new.txt', folderId: null, updatedAt: at(2) });
      expect(await files.findById(file.id)).toEqual(moved);
      expect(await files.update('no-such-file', { name: 'x', updatedAt: at(3) })).toBeNull();
    });

    it('applies a patch with whileIn only while the file still sits there', async () => {
      const file = aFile({ folderId: 'f1' });
      await files.insert(file);
      expect(await files.update(file.id, { folderId: 'f3', updatedAt: at(1), whileIn: 'f2' })).toBeNull();
      expect(await files.update(file.id, { folderId: 'f3', updatedAt: at(1), whileIn: null })).toBeNull();
      expect(await files.findById(file.id)).toEqual(file);
      const moved = await files.update(file.id, { folderId: 'f2', updatedAt: at(2), whileIn: 'f1' });
      expect(moved).toEqual({ ...file, folderId: 'f2', updatedAt: at(2) });
      const toRoot = await files.update(file.id, { folderId: null, updatedAt: at(3), whileIn: 'f2' });
      expect(toRoot?.folderId).toBeNull();
      expect((await files.update(file.id, { name: 'n', updatedAt: at(4), whileIn: null }))?.name).toBe('n');
    });

    it('lists, counts and searches a moved or renamed file in its new place only', async () => {
      const file = aFile({ name: 'draft.txt', folderId: 'f1' });
      await files.insert(file);
      await files.update(file.id, { name: 'final.txt', folderId: 'f2', updatedAt: at(1) });
      expect(await files.listInFolders('owner-1', ['f1'], 10)).toEqual([]);
      expect(ids(await files.listInFolders('owner-1', ['f2'], 10))).toEqual([file.id]);
      const counts = await files.countInFolders('owner-1', ['f1', 'f2']);
      expect(counts.get('f1') ?? 0).toBe(0);
      expect(counts.get('f2')).toBe(1);
      expect(await files.search('owner-1', 'draft', null, 10)).toEqual([]);
      expect(ids(await files.search('owner-1', 'final', ['f2'], 10))).toEqual([file.id]);
      expect(await files.search('owner-1', 'final', ['f1'], 10)).toEqual([]);
    });

    it('deletes once, returning the deleted file, and forgets it everywhere', async () => {
      const file = aFile({ name: 'gone.txt', folderId: 'f1' });
      await files.insert(file);
      expect(await files.delete(file.id)).toEqual(file);
      expect(await files.delete(file.id)).toBeNull();
      expect(await files.findById(file.id)).toBeNull();
      expect(await files.findByIds([file.id])).toEqual([]);
      expect(await files.listInFolders('owner-1', ['f1'], 10)).toEqual([]);
      expect(await files.search('owner-1', 'gone', null, 10)).toEqual([]);
      expect(await files.listByOwner('owner-1')).toEqual([]);
      expect((await files.countInFolders('owner-1', ['f1'])).get('f1') ?? 0).toBe(0);
    });

    it('lists the files directly in the folders, by name without case then id, at most limit', async () => {
      await files.insert(aFile({ id: 'r-2', name: 'banana', folderId: null }));
      await files.insert(aFile({ id: 'r-3', name: 'apple', folderId: null }));
      await files.insert(aFile({ id: 'r-1', name: 'Apple', folderId: null }));
      await files.insert(aFile({ id: 'f-1', name: 'Cherry', folderId: 'f1' }));
      await files.insert(aFile({ id: 'f-2', name: 'aardvark', folderId: 'f1' }));
      await files.insert(aFile({ id: 'g-1', name: 'aaa', folderId: 'f2' }));
      await files.insert(aFile({ id: 'x-1', name: 'aa', ownerId: 'owner-2', folderId: null }));
      await files.insert(aFile({ id: 'x-2', name: 'aa', ownerId: 'owner-2', folderId: 'f1' }));

      expect(ids(await files.listInFolders('owner-1', [null], 10))).toEqual(['r-1', 'r-3', 'r-2']);
      expect(ids(await files.listInFolders('owner-1', ['f1'], 10))).toEqual(['f-2', 'f-1']);
      expect(ids(await files.listInFolders('owner-1', ['f1', null], 10))).toEqual(['f-2', 'r-1', 'r-3', 'r-2', 'f-1']);
      expect(ids(await files.listInFolders('owner-1', ['f1', null], 2))).toEqual(['f-2', 'r-1']);
      expect(ids(await files.listInFolders('owner-1', ['f1', 'f1', null, null], 10))).toHaveLength(5);
      expect(await files.listInFolders('owner-1', ['unknown'], 10)).toEqual([]);
      expect(await files.listInFolders('owner-1', [], 10)).toEqual([]);
      expect(ids(await files.listInFolders('owner-2', [null, 'f1'], 10))).toEqual(['x-1', 'x-2']);
    });

    it('counts the files directly in each folder, for the owner only', async () => {
      await files.insert(aFile({ folderId: 'f1' }));
      await files.insert(aFile({ folderId: 'f1' }));
      await files.insert(aFile({ folderId: 'f2' }));
      await files.insert(aFile({ folderId: null }));
      await files.insert(aFile({ folderId: 'f1', ownerId: 'owner-2' }));
      const counts = await files.countInFolders('owner-1', ['f1', 'f2', 'f3']);
      expect(counts.get('f1')).toBe(2);
      expect(counts.get('f2')).toBe(1);
      expect(counts.get('f3') ?? 0).toBe(0);
      expect((await files.countInFolders('owner-2', ['f1'])).get('f1')).toBe(1);
    });

    it('searches names as a case-insensitive substring, ordered by name then id', async () => {
      await files.insert(aFile({ id: 's-2', name: 'Annual-REPORT.pdf' }));
      await files.insert(aFile({ id: 's-1', name: 'report.txt', folderId: 'deep' }));
      await files.insert(aFile({ id: 's-3', name: 'REPORT.txt' }));
      await files.insert(aFile({ id: 's-4', name: 'notes.md' }));
      expect(ids(await files.search('owner-1', 'report', null, 10))).toEqual(['s-2', 's-1', 's-3']);
      expect(ids(await files.search('owner-1', 'RePoRt.T', null, 10))).toEqual(['s-1', 's-3']);
      expect(ids(await files.search('owner-1', 'report', null, 2))).toEqual(['s-2', 's-1']);
      expect(await files.search('owner-1', 'missing', null, 10)).toEqual([]);
    });

    it('treats regular-expression characters in the query literally', async () => {
      await files.insert(aFile({ id: 'l-1', name: 'a.c' }));
      await files.insert(aFile({ id: 'l-2', name: 'abc' }));
      await files.insert(aFile({ id: 'l-3', name: 'x(1)' }));
      await files.insert(aFile({ id: 'l-4', name: 'y[2]+z' }));
      await files.insert(aFile({ id: 'l-5', name: 'back\\slash $5' }));
      await files.insert(aFile({ id: 'l-6', name: 'item 12' }));
      expect(ids(await files.search('owner-1', 'a.c', null, 10))).toEqual(['l-1']);
      expect(ids(await files.search('owner-1', '(1)', null, 10))).toEqual(['l-3']);
      expect(ids(await files.search('owner-1', '[2]+', null, 10))).toEqual(['l-4']);
      expect(ids(await files.search('owner-1', '\\s', null, 10))).toEqual(['l-5']);
      expect(ids(await files.search('owner-1', '$5', null, 10))).toEqual(['l-5']);
      expect(await files.search('owner-1', '.*', null, 10)).toEqual([]);
      expect(await files.search('owner-1', '^a', null, 10)).toEqual([]);
      expect(await files.search('owner-1', 'a|x', null, 10)).toEqual([]);
    });

    it('searches the whole account, the root, or only directly in the listed folders', async () => {
      await files.insert(aFile({ id: 'k-root', name: 'key root', folderId: null }));
      await files.insert(aFile({ id: 'k-f1', name: 'key one', folderId: 'f1' }));
      await files.insert(aFile({ id: 'k-f2', name: 'key two', folderId: 'f2' }));
      await files.insert(aFile({ id: 'k-other', name: 'key other', ownerId: 'owner-2', folderId: 'f1' }));
      expect(ids(await files.search('owner-1', 'KEY', null, 10))).toEqual(['k-f1', 'k-root', 'k-f2']);
      expect(ids(await files.search('owner-1', 'key', [null], 10))).toEqual(['k-root']);
      expect(ids(await files.search('owner-1', 'key', ['f1'], 10))).toEqual(['k-f1']);
      expect(ids(await files.search('owner-1', 'key', ['f2', null], 10))).toEqual(['k-root', 'k-f2']);
      expect(ids(await files.search('owner-1', 'key', ['f1', 'f1'], 10))).toEqual(['k-f1']);
      expect(await files.search('owner-1', 'key', [], 10)).toEqual([]);
      expect(ids(await files.search('owner-2', 'key', null, 10))).toEqual(['k-other']);
    });

    it("lists every file of the owner and no one else's", async () => {
      const a = aFile({ folderId: null });
      const b = aFile({ folderId: 'f1' });
      await files.insert(a);
      await files.insert(b);
      await files.insert(aFile({ ownerId: 'owner-2' }));
      const mine = await files.listByOwner('owner-1');
      expect(sorted(ids(mine))).toEqual(sorted([a.id, b.id]));
      expect(mine.find((file) => file.id === b.id)).toEqual(b);
      expect(await files.listByOwner('owner-3')).toEqual([]);
    });

    it('tells which blob keys some file points at, across owners, and forgets them with the file', async () => {
      const a = aFile({ blobKey: 'blob-a' });
      const b = aFile({ blobKey: 'blob-b', ownerId: 'owner-2' });
      await files.insert(a);
      await files.insert(b);
      expect(await files.referencedBlobKeys(['blob-a', 'blob-b', 'blob-c', 'blob-a'])).toEqual(
        new Set(['blob-a', 'blob-b']),
      );
      expect(await files.referencedBlobKeys([])).toEqual(new Set());
      await files.update(a.id, { name: 'renamed', updatedAt: at(1) });
      expect(await files.referencedBlobKeys(['blob-a'])).toEqual(new Set(['blob-a']));
      await files.delete(a.id);
      expect(await files.referencedBlobKeys(['blob-a', 'blob-b'])).toEqual(new Set(['blob-b']));
      await files.delete(b.id);
      expect(await files.referencedBlobKeys(['blob-a', 'blob-b'])).toEqual(new Set());
    });

    it('keeps its own copies: mutating what went in or came out changes nothing stored', async () => {
      const file = aFile({ name: 'copy.txt', folderId: 'f1' });
      const original = structuredClone(file);
      await files.insert(file);
      file.name = 'changed';
      file.folderId = null;
      file.createdAt.setTime(0);
      expect(await files.findById(original.id)).toEqual(original);

      (await files.findById(original.id))!.name = 'x';
      (await files.findByIds([original.id]))[0]!.updatedAt.setTime(0);
      (await files.listInFolders('owner-1', ['f1'], 10))[0]!.size = 0;
      (await files.search('owner-1', 'copy', null, 10))[0]!.folderId = null;
      (await files.listByOwner('owner-1'))[0]!.blobKey = 'x';
      expect(await files.findById(original.id)).toEqual(original);

      const patchedAt = at(4);
      const updated = (await files.update(original.id, { name: 'renamed', updatedAt: patchedAt }))!;
      patchedAt.setTime(0);
      updated.name = 'y';
      expect(await files.findById(original.id)).toEqual({ ...original, name: 'renamed', updatedAt: at(4) });
      expect(ids(await files.search('owner-1', 'renamed', ['f1'], 10))).toEqual([original.id]);
    });

    it('lets a file be claimed by one removal only, and deletes what that removal claimed', async () => {
      const [a, b, c] = [aFile({ size: 1 }), aFile({ size: 2 }), aFile({ size: 3 })];
      for (const file of [a, b, c]) await files.insert(file);
      expect(await files.isClaimed(a.id)).toBe(false);
      expect(sorted(ids(await files.claim([a.id, b.id, 'missing'], 'r1')))).toEqual(sorted([a.id, b.id]));
      // A second removal gets only what no removal claimed; the first still holds its own, asked again.
      expect(ids(await files.claim([b.id, c.id], 'r2'))).toEqual([c.id]);
      expect(sorted(ids(await files.claim([a.id, b.id], 'r1')))).toEqual(sorted([a.id, b.id]));
      expect(await files.claim([], 'r1')).toEqual([]);
      // A claimed file reads as before, and says it is claimed.
      expect(await files.findById(a.id)).toEqual(a);
      expect([await files.isClaimed(a.id), await files.isClaimed(c.id)]).toEqual([true, true]);
      expect(sorted(ids(await files.claimedBy('r1')))).toEqual(sorted([a.id, b.id]));
      expect(await files.claimedBy('r3')).toEqual([]);
      expect(await files.deleteClaimed('r1')).toBe(2);
      expect(await files.deleteClaimed('r1')).toBe(0);
      expect(await files.claimedBy('r1')).toEqual([]);
      expect(await files.findById(a.id)).toBeNull();
      expect(await files.isClaimed(a.id)).toBe(false);
      expect(await files.findById(c.id)).toEqual(c);
      expect(await files.delete(c.id)).toEqual(c);
      expect(await files.isClaimed(c.id)).toBe(false);
      expect(await files.claimedBy('r2')).toEqual([]);
    });

    it('gives each of many concurrent removals of the same files a share that adds up to each file once', async () => {
      const all = Array.from({ length: 30 }, () => aFile());
      for (const file of all) await files.insert(file);
      const claimed = await Promise.all(
        Array.from({ length: 6 }, (_, i) => files.claim(all.map((f) => f.id), `r${i}`)),
      );
      expect(sorted(claimed.flatMap(ids))).toEqual(sorted(ids(all)));
    });
  });
}
