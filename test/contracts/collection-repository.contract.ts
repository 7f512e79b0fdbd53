import { beforeEach, describe, expect, it } from 'vitest';
import type { CollectionRepository } from '../../src/application/ports/index.js';
import { aCollection, at, ids } from './fixtures.js';

/** Every CollectionRepository adapter runs this. `make` must return an adapter over empty storage. */
export function collectionRepositoryContract(name: string, make: () => Promise<CollectionRepository>): void {
  describe(name, () => {
    let collections: CollectionRepository;
    beforeEach(async () => {
      collections = await make();
    });

    it('stores a collection and finds it by id; an unknown id is null', async () => {
      const collection = aCollection({ fileIds: ['f2', 'f1'] });
      await collections.insert(collection);
      expect(await collections.findById(collection.id)).toEqual(collection);
      expect(await collections.findById('no-such-collection')).toBeNull();
    });

    it('rejects a second collection with the same id and keeps the first', async () => {
      const first = aCollection({ id: 'dup', name: 'first' });
      await collections.insert(first);
      await expect(collections.insert(aCollection({ id: 'dup', name: 'second' }))).rejects.toThrow();
      expect(await collections.findById('dup')).toEqual(first);
      expect(await collections.listByOwner('owner-1')).toEqual([first]);
    });

    it("lists the owner's collections by createdAt then id, and no one else's", async () => {
      await collections.insert(aCollection({ id: 'c-c', createdAt: at(1) }));
      await collections.insert(aCollection({ id: 'c-b', createdAt: at(2) }));
      await collections.insert(aCollection({ id: 'c-a', createdAt: at(1) }));
      await collections.insert(aCollection({ id: 'c-z', createdAt: at(0) }));
      await collections.insert(aCollection({ id: 'c-o', ownerId: 'owner-2' }));
      expect(ids(await collections.listByOwner('owner-1'))).toEqual(['c-z', 'c-a', 'c-c', 'c-b']);
      expect(await collections.listByOwner('owner-3')).toEqual([]);
    });

    it('renames and returns the collection after the change; an unknown one is null', async () => {
      const collection = aCollection({ name: 'old', fileIds: ['f1'] });
      await collections.insert(collection);
      const renamed = await collections.rename(collection.id, 'new', at(3));
      expect(renamed).toEqual({ ...collection, name: 'new', updatedAt: at(3) });
      expect(await collections.findById(collection.id)).toEqual(renamed);
      expect(await collections.rename('no-such-collection', 'x', at(4))).toBeNull();
    });

    it('deletes once, returning the deleted collection', async () => {
      const collection = aCollection({ fileIds: ['f1'] });
      await collections.insert(collection);
      expect(await collections.delete(collection.id)).toEqual(collection);
      expect(await collections.delete(collection.id)).toBeNull();
      expect(await collections.findById(collection.id)).toBeNull();
      expect(await collections.listByOwner('owner-1')).toEqual([]);
    });

    it('adds files in order, idempotently, up to max', async () => {
      const collection = aCollection({ id: 'c' });
      await collections.insert(collection);
      expect(await collections.addFile('c', 'f1', 2, at(1))).toBe('added');
      expect(await collections.findById('c')).toEqual({ ...collection, fileIds: ['f1'], updatedAt: at(1) });
      expect(await collections.addFile('c', 'f1', 2, at(2))).toBe('present');
      expect(await collections.addFile('c', 'f2', 2, at(3))).toBe('added');
      expect(await collections.addFile('c', 'f3', 2, at(4))).toBe('full');
      expect(await collections.addFile('c', 'f2', 2, at(5))).toBe('present');
      expect(await collections.findById('c')).toEqual({ ...collection, fileIds: ['f1', 'f2'], updatedAt: at(3) });
      expect(await collections.addFile('no-such-collection', 'f1', 2, at(6))).toBe('missing');
    });

    it('never overfills a collection under concurrent adds', async () => {
      await collections.insert(aCollection({ id: 'c' }));
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => collections.addFile('c', `f${i}`, 5, at(1))),
      );
      expect(results.filter((result) => result === 'added')).toHaveLength(5);
      expect(results.filter((result) => result === 'full')).toHaveLength(15);
      expect((await collections.findById('c'))!.fileIds).toHaveLength(5);
    });

    it('adds the same file once under concurrent adds', async () => {
      await collections.insert(aCollection({ id: 'c' }));
      const results = await Promise.all(Array.from({ length: 10 }, () => collections.addFile('c', 'f1', 5, at(1))));
      expect(results.filter((result) => result === 'added')).toHaveLength(1);
      expect((await collections.findById('c'))!.fileIds).toEqual(['f1']);
    });

    it('removes a file, keeping the order of the rest; an absent file is no error', async () => {
      const collection = aCollection({ id: 'c', fileIds: ['f1', 'f2', 'f3'] });
      await collections.insert(collection);
      expect(await collections.removeFile('c', 'f2', at(1))).toBe(true);
      expect(await collections.findById('c')).toEqual({ ...collection, fileIds: ['f1', 'f3'], updatedAt: at(1) });
      expect(await collections.removeFile('c', 'f2', at(2))).toBe(true);
      expect((await collections.findById('c'))!.fileIds).toEqual(['f1', 'f3']);
      expect(await collections.removeFile('no-such-collection', 'f1', at(3))).toBe(false);
    });

    it("takes files out of every collection of the owner, and no one else's", async () => {
      await collections.insert(aCollection({ id: 'c1', fileIds: ['f1', 'f2', 'f3'] }));
      await collections.insert(aCollection({ id: 'c2', fileIds: ['f3', 'f4'] }));
      await collections.insert(aCollection({ id: 'c3', fileIds: ['f4'] }));
      await collections.insert(aCollection({ id: 'c4', ownerId: 'owner-2', fileIds: ['f1', 'f3'] }));
      await collections.removeFilesEverywhere('owner-1', ['f1', 'f3', 'unknown']);
      expect((await collections.findById('c1'))!.fileIds).toEqual(['f2']);
      expect((await collections.findById('c2'))!.fileIds).toEqual(['f4']);
      expect((await collections.findById('c3'))!.fileIds).toEqual(['f4']);
      expect((await collections.findById('c4'))!.fileIds).toEqual(['f1', 'f3']);
      await collections.removeFilesEverywhere('owner-1', []);
      expect((await collections.findById('c1'))!.fileIds).toEqual(['f2']);
    });

    it('keeps its own copies: mutating what went in or came out changes nothing stored', async () => {
      const collection = aCollection({ id: 'c', fileIds: ['f1'] });
      const original = structuredClone(collection);
      await collections.insert(collection);
      collection.fileIds.push('f2');
      collection.name = 'changed';
      collection.createdAt.setTime(0);
      expect(await collections.findById('c')).toEqual(original);

      (await collections.findById('c'))!.fileIds.push('x');
      (await collections.listByOwner('owner-1'))[0]!.fileIds.length = 0;
      expect(await collections.findById('c')).toEqual(original);

      const renamedAt = at(2);
      const renamed = (await collections.rename('c', 'renamed', renamedAt))!;
      renamedAt.setTime(0);
      renamed.fileIds.push('y');
      const addedAt = at(3);
      await collections.addFile('c', 'f9', 10, addedAt);
      addedAt.setTime(0);
      expect(await collections.findById('c')).toEqual({
        ...original,
        name: 'renamed',
        fileIds: ['f1', 'f9'],
        updatedAt: at(3),
      });
    });
  });
}
