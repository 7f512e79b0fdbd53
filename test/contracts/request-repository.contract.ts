import { beforeEach, describe, expect, it } from 'vitest';
import type { RequestRepository } from '../../src/application/ports/index.js';
import type { FileRequest } from '../../src/domain/index.js';
import { at, ids } from './fixtures.js';

export function aRequest(overrides: Partial<FileRequest> = {}): FileRequest {
  return {
    id: 'req-1',
    ownerId: 'owner-1',
    ownerName: 'alice',
    name: 'Tax papers',
    message: null,
    folderId: 'folder-1',
    passwordHash: null,
    expiresAt: null,
    maxFiles: null,
    maxBytes: null,
    maxFileBytes: null,
    allowedTypes: [],
    requireName: false,
    closed: false,
    files: 0,
    bytes: 0,
    createdAt: at(0),
    updatedAt: at(0),
    ...overrides,
  };
}

/** Every RequestRepository adapter runs this. `make` must return an adapter over empty storage. */
export function requestRepositoryContract(name: string, make: () => Promise<RequestRepository>): void {
  describe(name, () => {
    let requests: RequestRepository;
    beforeEach(async () => {
      requests = await make();
    });

    it('stores a request and finds it by id; an unknown id is null; a second insert of an id is refused', async () => {
      const request = aRequest({ message: 'hi', passwordHash: 'h', expiresAt: at(9), maxFiles: 3, maxBytes: 10, maxFileBytes: 5, allowedTypes: ['image/*'], requireName: true });
      await requests.insert(request);
      expect(await requests.findById(request.id)).toEqual(request);
      expect(await requests.findById('nope')).toBeNull();
      await expect(requests.insert(aRequest({ name: 'other' }))).rejects.toThrow();
      expect((await requests.findById(request.id))!.name).toBe('Tax papers');
    });

    it("pages the owner's requests by createdAt then id, and no one else's", async () => {
      await requests.insert(aRequest({ id: 'r-c', createdAt: at(1) }));
      await requests.insert(aRequest({ id: 'r-a', createdAt: at(1) }));
      await requests.insert(aRequest({ id: 'r-z', createdAt: at(0) }));
      await requests.insert(aRequest({ id: 'r-o', ownerId: 'owner-2' }));
      expect(ids(await requests.pageByOwner('owner-1', null, 10))).toEqual(['r-z', 'r-a', 'r-c']);
      expect(ids(await requests.pageByOwner('owner-1', { createdAt: at(1), id: 'r-a' }, 10))).toEqual(['r-c']);
      expect(ids(await requests.pageByOwner('owner-1', null, 2))).toEqual(['r-z', 'r-a']);
      expect(ids(await requests.listByOwner('owner-2'))).toEqual(['r-o']);
    });

    it('updates only the given fields, never the counts, and deletes once', async () => {
      await requests.insert(aRequest({ files: 2, bytes: 7 }));
      const updated = await requests.update('req-1', { name: 'n', closed: true, maxFiles: null, message: null, allowedTypes: ['.pdf'], updatedAt: at(3) });
      expect(updated).toEqual(aRequest({ name: 'n', closed: true, allowedTypes: ['.pdf'], files: 2, bytes: 7, updatedAt: at(3) }));
      expect(await requests.update('nope', { name: 'x', updatedAt: at(3) })).toBeNull();
      expect((await requests.delete('req-1'))!.id).toBe('req-1');
      expect(await requests.delete('req-1')).toBeNull();
    });

    it('takes room only within maxFiles and maxBytes, while open and unexpired', async () => {
      await requests.insert(aRequest({ maxFiles: 2, maxBytes: 10, expiresAt: at(100) }));
      expect(await requests.takeRoom('req-1', { files: 1, bytes: 0 }, at(1), 'h1')).toMatchObject({ files: 1, bytes: 0 });
      expect(await requests.takeRoom('req-1', { files: 0, bytes: 10 }, at(1), 'h1')).toMatchObject({ files: 1, bytes: 10 });
      expect(await requests.takeRoom('req-1', { files: 0, bytes: 1 }, at(1), 'h2')).toBeNull();
      expect(await requests.takeRoom('req-1', { files: 1, bytes: 0 }, at(1), 'h2')).toMatchObject({ files: 2 });
      expect(await requests.takeRoom('req-1', { files: 1, bytes: 0 }, at(1), 'h3')).toBeNull();
      expect(await requests.giveBackHeld('h1')).toBe(true);
      expect(await requests.findById('req-1')).toMatchObject({ files: 1, bytes: 0 });
      expect(await requests.takeRoom('req-1', { files: 1, bytes: 0 }, at(100), 'h3')).toBeNull();
      await requests.update('req-1', { closed: true, updatedAt: at(2) });
      expect(await requests.takeRoom('req-1', { files: 1, bytes: 0 }, at(1), 'h3')).toBeNull();
      expect(await requests.takeRoom('nope', { files: 1, bytes: 0 }, at(1), 'h3')).toBeNull();
      // Nothing was taken under h3: giving it back changes nothing.
      expect(await requests.giveBackHeld('h3')).toBe(false);
      expect(await requests.findById('req-1')).toMatchObject({ files: 1, bytes: 0 });
    });

    it("gives back exactly what a hold took, once, however many try; a settled hold's room stays", async () => {
      await requests.insert(aRequest({ maxFiles: 3 }));
      await requests.insert(aRequest({ id: 'req-2' }));
      await requests.takeRoom('req-1', { files: 1, bytes: 0 }, at(1), 'up-1');
      await requests.takeRoom('req-1', { files: 0, bytes: 4 }, at(1), 'up-1');
      await requests.takeRoom('req-1', { files: 0, bytes: 6 }, at(1), 'up-1');
      await requests.takeRoom('req-1', { files: 1, bytes: 7 }, at(1), 'up-2');
      await requests.takeRoom('req-2', { files: 1, bytes: 2 }, at(1), 'up-3');
      expect(await requests.findById('req-1')).toMatchObject({ files: 2, bytes: 17 });
      const tries = await Promise.all(Array.from({ length: 5 }, () => requests.giveBackHeld('up-1')));
      expect(tries.filter(Boolean)).toHaveLength(1);
      expect(await requests.findById('req-1')).toMatchObject({ files: 1, bytes: 7 });
      await requests.settleHeld('up-2');
      expect(await requests.giveBackHeld('up-2')).toBe(false);
      expect(await requests.findById('req-1')).toMatchObject({ files: 1, bytes: 7 });
      // Room taken again under a hold given back (a stalled upload that goes on) is held again, and goes back again.
      await requests.takeRoom('req-1', { files: 0, bytes: 3 }, at(1), 'up-1');
      expect(await requests.giveBackHeld('up-1')).toBe(true);
      expect(await requests.findById('req-1')).toMatchObject({ files: 1, bytes: 7 });
      expect(await requests.findById('req-2')).toMatchObject({ files: 1, bytes: 2 });
      // A deleted request holds nothing.
      await requests.delete('req-2');
      expect(await requests.giveBackHeld('up-3')).toBe(false);
    });

    it('lets exactly maxFiles through when 20 take at once', async () => {
      await requests.insert(aRequest({ maxFiles: 5 }));
      const taken = await Promise.all(Array.from({ length: 20 }, (_, i) => requests.takeRoom('req-1', { files: 1, bytes: 0 }, at(1), `h${i}`)));
      expect(taken.filter((r) => r !== null)).toHaveLength(5);
      expect((await requests.findById('req-1'))!.files).toBe(5);
    });
  });
}
