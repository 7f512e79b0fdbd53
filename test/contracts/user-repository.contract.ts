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
      const updated = await users.update(user.id, { limits: { storage: 10 }, updatedAt: at(5) });
      const expected = { ...user, limits: { storage: 10 }, updatedAt: at(5) };
      expect(updated).toEqual(expected);
      expect(await users.findById(user.id)).toEqual(expected);

      await users.update(user.id, { passwordHash: 'new-hash', updatedAt: at(6) });
      expect(await users.findById(user.id)).toMatchObject({ passwordHash: 'new-hash', limits: { storage: 10 }, updatedAt: at(6) });
    });

    it('moves credentialsEpoch on by one with every new password hash, and only then', async () => {
      const user = aUser({ credentialsEpoch: 4 });
      await users.insert(user);
      expect(await users.findById(user.id)).toMatchObject({ credentialsEpoch: 4 });
      expect(await users.update(user.id, { passwordHash: 'second', updatedAt: at(1) })).toMatchObject({
        passwordHash: 'second',
        credentialsEpoch: 5,
      });
      await users.update(user.id, { limits: { files: 1 }, updatedAt: at(2) });
      await users.setType(user.id, 'admin', at(3));
      expect(await users.findById(user.id)).toMatchObject({ credentialsEpoch: 5 });
      await Promise.all([1, 2, 3].map((i) => users.update(user.id, { passwordHash: `h${i}`, updatedAt: at(4) })));
      expect(await users.findById(user.id)).toMatchObject({ credentialsEpoch: 8 });
    });

    it("changes a user's own password in one write only from the epoch the proof was checked at", async () => {
      const user = aUser({ credentialsEpoch: 2 });
      await users.insert(user);
      const change = { passwordHash: 'own', keptSessionId: 's-1', updatedAt: at(7) };
      expect(await users.changeOwnPassword(user.id, { ...change, fromEpoch: 1 })).toBeNull();
      expect(await users.findById(user.id)).toEqual(user);
      const expected = { ...user, passwordHash: 'own', credentialsEpoch: 3, keptSessionId: 's-1', updatedAt: at(7) };
      expect(await users.changeOwnPassword(user.id, { ...change, fromEpoch: 2 })).toEqual(expected);
      expect(await users.findById(user.id)).toEqual(expected);
      expect(await users.changeOwnPassword(user.id, { ...change, fromEpoch: 2 })).toBeNull();
      expect(await users.changeOwnPassword('no-such-user', { ...change, fromEpoch: 0 })).toBeNull();
      expect(await users.list()).toEqual([expected]);
    });

    it('lets exactly one of several own password changes from the same epoch win', async () => {
      const user = aUser();
      await users.insert(user);
      const outcomes = await Promise.all(
        [1, 2, 3, 4, 5].map((i) =>
          users.changeOwnPassword(user.id, { fromEpoch: 0, passwordHash: `h${i}`, keptSessionId: `s${i}`, updatedAt: at(i) }),
        ),
      );
      const won = outcomes.filter((o) => o !== null);
      expect(won).toHaveLength(1);
      expect(await users.findById(user.id)).toEqual(won[0]);
      expect(won[0]).toMatchObject({ credentialsEpoch: 1, passwordHash: `h${won[0]!.keptSessionId!.slice(1)}` });
    });

    it('forgets the kept session with any other new password hash, and keeps it through other updates', async () => {
      const user = aUser();
      await users.insert(user);
      await users.changeOwnPassword(user.id, { fromEpoch: 0, passwordHash: 'own', keptSessionId: 's-1', updatedAt: at(1) });
      await users.update(user.id, { limits: { files: 1 }, updatedAt: at(2) });
      await users.setType(user.id, 'admin', at(3));
      expect(await users.findById(user.id)).toMatchObject({ keptSessionId: 's-1', credentialsEpoch: 1 });
      expect(await users.update(user.id, { passwordHash: 'reset', updatedAt: at(4) })).toMatchObject({
        keptSessionId: null,
        credentialsEpoch: 2,
      });
      expect(await users.findById(user.id)).toMatchObject({ keptSessionId: null, credentialsEpoch: 2 });
    });

    it('keeps mustChangePassword: as inserted, changed only when a patch names it, cleared by an own change', async () => {
      const asked = aUser({ mustChangePassword: true });
      const free = aUser();
      await users.insert(asked);
      await users.insert(free);
      expect(await users.findById(asked.id)).toEqual(asked);
      expect(await users.findByUsername(free.username)).toMatchObject({ mustChangePassword: false });

      await users.update(asked.id, { limits: { files: 1 }, updatedAt: at(1) });
      await users.update(asked.id, { passwordHash: 'no-flag-named', updatedAt: at(2) });
      await users.setType(asked.id, 'admin', at(3));
      expect(await users.findById(asked.id)).toMatchObject({ mustChangePassword: true, credentialsEpoch: 1 });

      expect(await users.update(free.id, { passwordHash: 'set-by-admin', mustChangePassword: true, updatedAt: at(4) }))
        .toMatchObject({ mustChangePassword: true, passwordHash: 'set-by-admin', credentialsEpoch: 1 });
      expect(await users.findById(free.id)).toMatchObject({ mustChangePassword: true });
      expect(await users.update(free.id, { mustChangePassword: false, updatedAt: at(5) })).toMatchObject({
        mustChangePassword: false,
        passwordHash: 'set-by-admin',
        credentialsEpoch: 1,
      });

      // A losing own change writes nothing, the flag included; the winning one clears it.
      expect(
        await users.changeOwnPassword(asked.id, { fromEpoch: 0, passwordHash: 'own', keptSessionId: 's', updatedAt: at(6) }),
      ).toBeNull();
      expect(await users.findById(asked.id)).toMatchObject({ mustChangePassword: true });
      expect(
        await users.changeOwnPassword(asked.id, { fromEpoch: 1, passwordHash: 'own', keptSessionId: 's', updatedAt: at(7) }),
      ).toMatchObject({ mustChangePassword: false, passwordHash: 'own' });
      expect(await users.findById(asked.id)).toMatchObject({ mustChangePassword: false });
      expect((await users.list()).map((u) => u.mustChangePassword)).toEqual([false, false]);
    });

    it('returns null when updating an unknown user', async () => {
      expect(await users.update('no-such-user', { limits: {}, updatedAt: at(1) })).toBeNull();
      expect(await users.list()).toEqual([]);
    });

    it('deletes once, and frees the username', async () => {
      const user = aUser({ username: 'carol' });
      await users.insert(user);
      expect(await users.delete(user.id)).toBe('done');
      expect(await users.delete(user.id)).toBe('missing');
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
      expect(await users.setType(user.id, 'admin', at(1))).toBe('done');
      expect(await users.countAdmins()).toBe(3);
      expect(await users.delete(admin.id)).toBe('done');
      expect(await users.countAdmins()).toBe(2);
      expect(await users.checkAdminCount(false)).toEqual({ stored: 2, actual: 2 });
    });

    it('changes the type, stamping updatedAt; the same type or an unknown user writes nothing', async () => {
      const user = aUser();
      await users.insert(user);
      await users.insert(aUser({ type: 'admin' }));
      expect(await users.setType(user.id, 'admin', at(2))).toBe('done');
      expect(await users.findById(user.id)).toEqual({ ...user, type: 'admin', updatedAt: at(2) });
      expect(await users.setType(user.id, 'admin', at(3))).toBe('done');
      expect((await users.findById(user.id))!.updatedAt).toEqual(at(2));
      expect(await users.setType(user.id, 'user', at(4))).toBe('done');
      expect(await users.findById(user.id)).toEqual({ ...user, updatedAt: at(4) });
      expect(await users.setType('no-such-user', 'user', at(5))).toBe('missing');
      expect(await users.countAdmins()).toBe(1);
    });

    it('never demotes or deletes the last admin, and writes nothing when it refuses', async () => {
      const last = aUser({ type: 'admin' });
      await users.insert(last);
      await users.insert(aUser());
      expect(await users.setType(last.id, 'user', at(1))).toBe('last_admin');
      expect(await users.delete(last.id)).toBe('last_admin');
      expect(await users.findById(last.id)).toEqual(last);
      expect(await users.checkAdminCount(false)).toEqual({ stored: 1, actual: 1 });
      // With a second admin the first may go; the second is then the last.
      const second = aUser({ type: 'admin' });
      await users.insert(second);
      expect(await users.delete(last.id)).toBe('done');
      expect(await users.setType(second.id, 'user', at(2))).toBe('last_admin');
      expect(await users.checkAdminCount(true)).toEqual({ stored: 1, actual: 1 });
    });

    it('leaves exactly one admin when every admin is demoted or deleted at once, round after round', async () => {
      for (let round = 0; round < 5; round++) {
        const repo = round === 0 ? users : await make();
        const team = Array.from({ length: 4 }, () => aUser({ type: 'admin' }));
        for (const admin of team) await repo.insert(admin);
        const outcomes = await Promise.all(
          team.map((admin, i) => (i % 2 === 0 ? repo.setType(admin.id, 'user', at(1)) : repo.delete(admin.id))),
        );
        expect(outcomes.filter((o) => o === 'done'), `round ${round}`).toHaveLength(3);
        expect(outcomes.filter((o) => o === 'last_admin')).toHaveLength(1);
        expect(await repo.countAdmins()).toBe(1);
        expect(await repo.checkAdminCount(false)).toEqual({ stored: 1, actual: 1 });
      }
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
  
    describe('single sign-on identities', () => {
      const keycloak = { issuer: 'https://kc.example/realms/home', subject: 'sub-1' };

      it('stores a user without a password and finds them by issuer and subject, exactly', async () => {
        const user = aUser({ passwordHash: null, oidc: keycloak });
        expect(await users.insert(user)).toBe(true);
        expect(await users.findById(user.id)).toEqual(user);
        expect(await users.findByOidc({ ...keycloak })).toEqual(user);
        expect(await users.findByOidc({ issuer: keycloak.issuer, subject: 'SUB-1' })).toBeNull();
        expect(await users.findByOidc({ issuer: 'https://other.example', subject: 'sub-1' })).toBeNull();
        expect(await users.findByOidc({ issuer: keycloak.issuer, subject: 'sub-2' })).toBeNull();
      });

      it('refuses a second user with the same identity and writes nothing', async () => {
        const first = aUser({ oidc: keycloak });
        const second = aUser({ oidc: { ...keycloak } });
        expect(await users.insert(first)).toBe(true);
        expect(await users.insert(second)).toBe(false);
        expect(await users.findById(second.id)).toBeNull();
        // The same subject at another issuer is another person.
        expect(await users.insert(aUser({ oidc: { issuer: 'https://other.example', subject: 'sub-1' } }))).toBe(true);
        // Users without an identity never clash over it.
        expect(await users.insert(aUser())).toBe(true);
        expect(await users.insert(aUser())).toBe(true);
      });

      it('links an identity once: another user holding it is refused, a relink replaces the old one', async () => {
        const alice = aUser();
        const bob = aUser();
        await users.insert(alice);
        await users.insert(bob);
        expect(await users.linkOidc(alice.id, keycloak, at(1))).toBe('done');
        expect(await users.findByOidc(keycloak)).toEqual({ ...alice, oidc: keycloak, updatedAt: at(1) });
        expect(await users.linkOidc(bob.id, keycloak, at(2))).toBe('taken');
        expect((await users.findById(bob.id))!.oidc).toBeNull();
        expect(await users.linkOidc(alice.id, keycloak, at(3))).toBe('done');
        const other = { issuer: keycloak.issuer, subject: 'sub-9' };
        expect(await users.linkOidc(alice.id, other, at(4))).toBe('done');
        expect(await users.findByOidc(keycloak)).toBeNull();
        expect(await users.linkOidc(bob.id, keycloak, at(5))).toBe('done');
        expect(await users.linkOidc('no-such-user', { issuer: 'x', subject: 'y' }, at(5))).toBe('missing');
      });

      it('lets two links racing for one identity end with one holder', async () => {
        const [a, b] = [aUser(), aUser()];
        await users.insert(a);
        await users.insert(b);
        const outcomes = await Promise.all([users.linkOidc(a.id, keycloak, at(1)), users.linkOidc(b.id, keycloak, at(1))]);
        expect(outcomes.sort()).toEqual(['done', 'taken']);
      });

      it('unlinks only a user with a password; without one nothing is written', async () => {
        const withPassword = aUser({ oidc: keycloak });
        const ssoOnly = aUser({ passwordHash: null, oidc: { issuer: keycloak.issuer, subject: 'sub-2' } });
        await users.insert(withPassword);
        await users.insert(ssoOnly);
        expect(await users.unlinkOidc(ssoOnly.id, at(1), true)).toBe('no_password');
        expect(await users.findById(ssoOnly.id)).toEqual(ssoOnly);
        expect(await users.unlinkOidc(withPassword.id, at(2), true)).toBe('done');
        expect(await users.findById(withPassword.id)).toEqual({ ...withPassword, oidc: null, updatedAt: at(2) });
        expect(await users.findByOidc(keycloak)).toBeNull();
        expect(await users.unlinkOidc(withPassword.id, at(3), true)).toBe('done');
        expect(await users.unlinkOidc('no-such-user', at(3), true)).toBe('missing');
        // Without needing a password (the user has a passkey), the identity goes all the same.
        expect(await users.unlinkOidc(ssoOnly.id, at(4), false)).toBe('done');
        expect(await users.findById(ssoOnly.id)).toEqual({ ...ssoOnly, oidc: null, updatedAt: at(4) });
        expect(await users.unlinkOidc('no-such-user', at(4), false)).toBe('missing');
        // Once unlinked, the identity is free for someone else; once deleted, too.
        const other = aUser();
        await users.insert(other);
        expect(await users.linkOidc(other.id, keycloak, at(5))).toBe('done');
        expect(await users.delete(other.id)).toBe('done');
        expect(await users.insert(aUser({ oidc: keycloak }))).toBe(true);
      });

      it('gives a user without a password a password through update', async () => {
        const user = aUser({ passwordHash: null, oidc: keycloak });
        await users.insert(user);
        const updated = await users.update(user.id, { passwordHash: 'new-hash', updatedAt: at(1) });
        expect(updated).toEqual({ ...user, passwordHash: 'new-hash', credentialsEpoch: 1, updatedAt: at(1) });
        expect(await users.unlinkOidc(user.id, at(2), true)).toBe('done');
      });
    });
  });
}
