import { beforeEach, describe, expect, it } from 'vitest';
import type { PasteRepository } from '../../src/application/ports/index.js';
import { aPaste, at, ids } from './fixtures.js';

/** Every PasteRepository adapter runs this. `make` must return an adapter over empty storage. */
export function pasteRepositoryContract(name: string, make: () => Promise<PasteRepository>): void {
  describe(name, () => {
    let pastes: PasteRepository;
    beforeEach(async () => {
      pastes = await make();
    });

    it('stores a paste and finds it by id; an unknown id is null', async () => {
      const paste = aPaste({ type: 'markdown', content: '# Grüße', size: 9, uploaderTokenId: 'token-7' });
      await pastes.insert(paste);
      expect(await pastes.findById(paste.id)).toEqual(paste);
      expect(await pastes.update(paste.id, { content: 'x', size: 1, updatedAt: at(1) })).toMatchObject({
        uploaderTokenId: 'token-7',
      });
      expect(await pastes.findById('no-such-paste')).toBeNull();
    });

    it('keeps an end-to-end encrypted paste\'s flag; others have none', async () => {
      const sealed = aPaste({ encrypted: true, content: 'c2VhbGVk' });
      const plain = aPaste();
      await pastes.insert(sealed);
      await pastes.insert(plain);
      expect(await pastes.findById(sealed.id)).toEqual(sealed);
      expect((await pastes.findById(plain.id))?.encrypted ?? false).toBe(false);
    });

    it('rejects a second paste with the same id and keeps the first', async () => {
      const first = aPaste({ id: 'dup', content: 'first' });
      await pastes.insert(first);
      await expect(pastes.insert(aPaste({ id: 'dup', content: 'second' }))).rejects.toThrow();
      expect(await pastes.findById('dup')).toEqual(first);
      expect(await pastes.listByOwner('owner-1')).toEqual([first]);
    });

    it("lists the owner's pastes by createdAt then id, and no one else's", async () => {
      await pastes.insert(aPaste({ id: 'p-c', createdAt: at(1) }));
      await pastes.insert(aPaste({ id: 'p-b', createdAt: at(2) }));
      await pastes.insert(aPaste({ id: 'p-a', createdAt: at(1) }));
      await pastes.insert(aPaste({ id: 'p-z', createdAt: at(0) }));
      await pastes.insert(aPaste({ id: 'p-o', ownerId: 'owner-2' }));
      expect(ids(await pastes.listByOwner('owner-1'))).toEqual(['p-z', 'p-a', 'p-c', 'p-b']);
      expect(ids(await pastes.listByOwner('owner-2'))).toEqual(['p-o']);
      expect(await pastes.listByOwner('owner-3')).toEqual([]);
    });

    it('updates only the given fields and returns the paste after the change', async () => {
      const paste = aPaste({ name: 'notes', type: 'text', content: 'abc', size: 3 });
      await pastes.insert(paste);
      const renamed = await pastes.update(paste.id, { name: 'renamed', updatedAt: at(1) });
      expect(renamed).toEqual({ ...paste, name: 'renamed', updatedAt: at(1) });
      const rewritten = await pastes.update(paste.id, {
        type: 'javascript',
        content: 'let x;',
        size: 6,
        updatedAt: at(2),
      });
      const expected = { ...paste, name: 'renamed', type: 'javascript', content: 'let x;', size: 6, updatedAt: at(2) };
      expect(rewritten).toEqual(expected);
      expect(await pastes.findById(paste.id)).toEqual(expected);
      expect(await pastes.update('no-such-paste', { name: 'x', updatedAt: at(3) })).toBeNull();
      expect(await pastes.update(paste.id, { content: 'abc', size: 3, ifSize: 999, updatedAt: at(4) })).toBeNull();
      expect(await pastes.findById(paste.id)).toEqual(expected);
      const checked = await pastes.update(paste.id, { content: 'ab', size: 2, ifSize: 6, updatedAt: at(5) });
      expect(checked).toMatchObject({ content: 'ab', size: 2 });
    });

    it('names the rewrite of each write that carries one, the last 16, newest last', async () => {
      const paste = aPaste({ content: 'abc', size: 3 });
      await pastes.insert(paste);
      expect((await pastes.findById(paste.id))!.rewrites).toBeUndefined();
      expect(await pastes.update(paste.id, { content: 'ab', size: 2, ifSize: 9, rewrite: 'lost', updatedAt: at(1) })).toBeNull();
      for (let i = 0; i < 20; i++) {
        const written = await pastes.update(paste.id, { content: 'x'.repeat(i), size: i, rewrite: `r${i}`, updatedAt: at(i + 2) });
        expect(written!.rewrites!.at(-1)).toBe(`r${i}`);
      }
      const found = await pastes.findById(paste.id);
      expect(found!.rewrites).toEqual(Array.from({ length: 16 }, (_, i) => `r${i + 4}`));
      expect((await pastes.delete(paste.id))!.rewrites).toEqual(found!.rewrites);
    });

    it('deletes once, returning the deleted paste', async () => {
      const paste = aPaste();
      const other = aPaste();
      await pastes.insert(paste);
      await pastes.insert(other);
      expect(await pastes.delete(paste.id)).toEqual(paste);
      expect(await pastes.delete(paste.id)).toBeNull();
      expect(await pastes.findById(paste.id)).toBeNull();
      expect(await pastes.listByOwner('owner-1')).toEqual([other]);
    });

    it('keeps its own copies: mutating what went in or came out changes nothing stored', async () => {
      const paste = aPaste({ content: 'original' });
      const original = structuredClone(paste);
      await pastes.insert(paste);
      paste.content = 'changed';
      paste.createdAt.setTime(0);
      expect(await pastes.findById(original.id)).toEqual(original);

      (await pastes.findById(original.id))!.content = 'x';
      (await pastes.listByOwner('owner-1'))[0]!.updatedAt.setTime(0);
      expect(await pastes.findById(original.id)).toEqual(original);

      const patchedAt = at(5);
      const updated = (await pastes.update(original.id, { content: 'new', size: 3, updatedAt: patchedAt }))!;
      patchedAt.setTime(0);
      updated.content = 'y';
      expect(await pastes.findById(original.id)).toEqual({ ...original, content: 'new', size: 3, updatedAt: at(5) });
    });
  });
}
