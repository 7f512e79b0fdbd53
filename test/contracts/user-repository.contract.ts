import { beforeEach, describe, expect, it } from 'vitest';
import type { UserRepository } from '../../src/application/ports/index.js';
import { aUser, at, ids } from './fixtures.js';

/** Every UserRepository adapter runs this. `make` must return an adapter over empty storage. */
export function userRepositoryContract(name: string, make: () => Promise<UserRepository>): void {
  describe(name, () => {
    let users: UserRepository;
    beforeEach(async () => {
      users = await make();
    });

    it('stores a user and finds it by id; an unknown id is null', async () => {
      const user = aUser({ limits: { storage: 1000, files: 3 } });
      expect(await users.insert(user)).toBe(true);
      expect(await users.findById(user.id)).toEqual(user);
      expect(await users.findById('no-such-user')).toBeNull();
    });

    it('refuses a username taken in any case and writes nothing', async () => {
      const first = aUser({ username: 'Alice' });
      const second = aUser({ username: 'aLICE', type: 'admin' });
      expect(await users.insert(first)).toBe(true);
      expect(await users.insert(second)).toBe(false);
      expect(await users.findById(second.id)).toBeNull();
      expect(await users.findByUsername('alice')).toEqual(first);
      expect(ids(await users.list())).toEqual([first.id]);
      expect(await users.countAdmins()).toBe(0);
    });

    it('never replaces a user with a second record of the same id (false or a rejection)', async () => {
      const first = aUser({ id: 'same', username: 'first' });
      await users.insert(first);
      const second = users.insert(aUser({ id: 'same', username: 'second' }));
      expect(await second.catch(() => false)).toBe(false);
      expect(await users.list()).toEqual([first]);
      expect(await users.findByUsername('second')).toBeNull();
    });

    it('finds by username without regard to case', async () => {
      const user = aUser({ username: 'Bob.Smith' });
      await users.insert(user);
      expect(await users.findByUsername('bob.smith')).toEqual(user);
      expect(await users.findByUsername('BOB.SMITH')).toEqual(user);
      expect(await users.findByUsername('bob')).toBeNull();
    });

    it('lists every user ordered by createdAt then id', async () => {
      await users.insert(aUser({ id: 'u-c', createdAt: at(1) }));
      await users.insert(aUser({ id: 'u-b', createdAt: at(2) }));
      await users.insert(aUser({ id: 'u-z', createdAt: at(0) }));
      await users.insert(aUser({ id: 'u-a', createdAt: at(1) }));
      expect(ids(await users.list())).toEqual(['u-z', 'u-a', 'u-c', 'u-b']);
    });

    it('updates only the given fields and returns the user after the change', async () => {
      const user = aUser({ limits: { files: 5 } });
      await users.insert(user);
      const updated = await users.update(user.id, { type: 'admin', updatedAt: at(5) });
      const expected = { ...user, type: 'admin', updatedAt: at(5) };
      expect(updated).toEqual(expected);
      expect(await users.findById(user.id)).toEqual(expected);

      await users.update(user.id, { passwordHash: 'new-hash', limits: { storage: 10 }, updatedAt: at(6) });
      expect(await users.findById(user.id)).toEqual({
        ...expected,
        passwordHash: 'new-hash',
        limits: { storage: 10 },
        updatedAt: at(6),
      });
    });

    it('returns null when updating an unknown user', async () => {
      expect(await users.update('no-such-user', { type: 'admin', updatedAt: at(1) })).toBeNull();
      expect(await users.list()).toEqual([]);
    });

    it('deletes once, and frees the username', async () => {
      const user = aUser({ username: 'carol' });
      await users.insert(user);
      expect(await users.delete(user.id)).toBe(true);
      expect(await users.delete(user.id)).toBe(false);
      expect(await users.findById(user.id)).toBeNull();
      expect(await users.findByUsername('carol')).toBeNull();
      expect(await users.insert(aUser({ username: 'Carol' }))).toBe(true);
    });

    it('counts admins as they come, change and go', async () => {
      const admin = aUser({ type: 'admin' });
      const user = aUser();
      await users.insert(admin);
      await users.insert(user);
      await users.insert(aUser({ type: 'admin' }));
      expect(await users.countAdmins()).toBe(2);
      await users.update(user.id, { type: 'admin', updatedAt: at(1) });
      expect(await users.countAdmins()).toBe(3);
      await users.delete(admin.id);
      expect(await users.countAdmins()).toBe(2);
    });

    it('keeps its own copies: mutating what went in or came out changes nothing stored', async () => {
      const user = aUser({ limits: { files: 5 } });
      const original = structuredClone(user);
      await users.insert(user);
      user.username = 'changed';
      user.limits.files = 99;
      user.createdAt.setTime(0);
      expect(await users.findById(original.id)).toEqual(original);

      const found = (await users.findById(original.id))!;
      found.limits.storage = 1;
      found.updatedAt.setTime(0);
      (await users.list())[0]!.limits.tokens = 1;
      (await users.findByUsername(original.username))!.type = 'admin';
      expect(await users.findById(original.id)).toEqual(original);

      const limits = { files: 7 };
      const patchedAt = at(3);
      const updated = (await users.update(original.id, { limits, updatedAt: patchedAt }))!;
      limits.files = 70;
      patchedAt.setTime(0);
      updated.limits.files = 700;
      expect(await users.findById(original.id)).toEqual({ ...original, limits: { files: 7 }, updatedAt: at(3) });
    });
  });
}
