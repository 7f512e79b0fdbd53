import { beforeEach, describe, expect, it } from 'vitest';
import type { TokenRepository } from '../../src/application/ports/index.js';
import { aToken, at, ids } from './fixtures.js';

/** Every TokenRepository adapter runs this. `make` must return an adapter over empty storage. */
export function tokenRepositoryContract(name: string, make: () => Promise<TokenRepository>): void {
  describe(name, () => {
    let tokens: TokenRepository;
    beforeEach(async () => {
      tokens = await make();
    });

    it('stores a token and finds it by id and by hash; unknown ones are null', async () => {
      const session = aToken({ type: 'session', expiresAt: at(30), credentialsEpoch: 3 });
      const uploader = aToken({ type: 'uploader', name: 'ci', expiresAt: null, credentialsEpoch: null });
      await tokens.insert(session);
      await tokens.insert(uploader);
      expect(await tokens.findById(session.id)).toEqual(session);
      expect(await tokens.findByHash(session.hash)).toEqual(session);
      expect(await tokens.findByHash(uploader.hash)).toEqual(uploader);
      expect(await tokens.findById('no-such-token')).toBeNull();
      expect(await tokens.findByHash('no-such-hash')).toBeNull();
    });

    it('rejects a second token with the same id or the same hash and keeps the first', async () => {
      const first = aToken({ id: 't-1', hash: 'h-1' });
      await tokens.insert(first);
      await expect(tokens.insert(aToken({ id: 't-1', hash: 'h-2' }))).rejects.toThrow();
      await expect(tokens.insert(aToken({ id: 't-2', hash: 'h-1' }))).rejects.toThrow();
      expect(await tokens.findById('t-1')).toEqual(first);
      expect(await tokens.findById('t-2')).toBeNull();
      expect(await tokens.findByHash('h-1')).toEqual(first);
      expect(await tokens.findByHash('h-2')).toBeNull();
    });

    it("lists one user's tokens of one type, ordered by createdAt then id", async () => {
      await tokens.insert(aToken({ id: 't-c', userId: 'u1', type: 'uploader', createdAt: at(1) }));
      await tokens.insert(aToken({ id: 't-b', userId: 'u1', type: 'uploader', createdAt: at(2) }));
      await tokens.insert(aToken({ id: 't-a', userId: 'u1', type: 'uploader', createdAt: at(1) }));
      await tokens.insert(aToken({ id: 't-z', userId: 'u1', type: 'uploader', createdAt: at(0) }));
      await tokens.insert(aToken({ id: 't-s', userId: 'u1', type: 'session' }));
      await tokens.insert(aToken({ id: 't-o', userId: 'u2', type: 'uploader' }));
      expect(ids(await tokens.listByUser('u1', 'uploader'))).toEqual(['t-z', 't-a', 't-c', 't-b']);
      expect(ids(await tokens.listByUser('u1', 'session'))).toEqual(['t-s']);
      expect(await tokens.listByUser('u3', 'session')).toEqual([]);
    });

    it('deletes one token once', async () => {
      const token = aToken();
      const other = aToken();
      await tokens.insert(token);
      await tokens.insert(other);
      expect(await tokens.delete(token.id)).toBe(true);
      expect(await tokens.delete(token.id)).toBe(false);
      expect(await tokens.findById(token.id)).toBeNull();
      expect(await tokens.findByHash(token.hash)).toBeNull();
      expect(await tokens.findById(other.id)).toEqual(other);
    });

    it("deletes a user's tokens of one type, or all of them, and no one else's", async () => {
      const session = aToken({ userId: 'u1', type: 'session' });
      await tokens.insert(session);
      await tokens.insert(aToken({ userId: 'u1', type: 'uploader' }));
      await tokens.insert(aToken({ userId: 'u1', type: 'uploader' }));
      const foreign = aToken({ userId: 'u2', type: 'uploader' });
      await tokens.insert(foreign);

      expect(await tokens.deleteByUser('u1', 'uploader')).toBe(2);
      expect(await tokens.listByUser('u1', 'uploader')).toEqual([]);
      expect(await tokens.listByUser('u1', 'session')).toEqual([session]);

      await tokens.insert(aToken({ userId: 'u1', type: 'uploader' }));
      expect(await tokens.deleteByUser('u1')).toBe(2);
      expect(await tokens.findByHash(session.hash)).toBeNull();
      expect(await tokens.listByUser('u1', 'session')).toEqual([]);
      expect(await tokens.listByUser('u2', 'uploader')).toEqual([foreign]);
      expect(await tokens.deleteByUser('u1')).toBe(0);
    });

    it("deletes a user's tokens of one type except the one to keep", async () => {
      const kept = aToken({ userId: 'u1', type: 'session' });
      const api = aToken({ userId: 'u1', type: 'uploader' });
      for (const token of [kept, aToken({ userId: 'u1' }), aToken({ userId: 'u1' }), api]) await tokens.insert(token);
      const foreign = aToken({ userId: 'u2', type: 'session' });
      await tokens.insert(foreign);
      expect(await tokens.deleteByUser('u1', 'session', kept.id)).toBe(2);
      expect(await tokens.listByUser('u1', 'session')).toEqual([kept]);
      expect(await tokens.listByUser('u1', 'uploader')).toEqual([api]);
      expect(await tokens.listByUser('u2', 'session')).toEqual([foreign]);
      expect(await tokens.deleteByUser('u1', 'session', kept.id)).toBe(0);
    });

    it('moves a session expiry only later, and only while the session is still unexpired', async () => {
      const session = aToken({ expiresAt: at(60) });
      const api = aToken({ type: 'uploader', expiresAt: null, credentialsEpoch: null });
      await tokens.insert(session);
      await tokens.insert(api);
      expect(await tokens.extendExpiry(session.id, at(90), at(10))).toBe(true);
      expect(await tokens.findById(session.id)).toEqual({ ...session, expiresAt: at(90) });
      expect(await tokens.findByHash(session.hash)).toEqual({ ...session, expiresAt: at(90) });
      // Never earlier, never the same again.
      expect(await tokens.extendExpiry(session.id, at(80), at(10))).toBe(false);
      expect(await tokens.extendExpiry(session.id, at(90), at(10))).toBe(false);
      // Expired at `now`: nothing brings it back.
      expect(await tokens.extendExpiry(session.id, at(500), at(90))).toBe(false);
      expect(await tokens.extendExpiry(session.id, at(500), at(95))).toBe(false);
      expect((await tokens.findById(session.id))!.expiresAt).toEqual(at(90));
      // A token that never expires stays so; an unknown one is not created.
      expect(await tokens.extendExpiry(api.id, at(500), at(10))).toBe(false);
      expect(await tokens.findById(api.id)).toEqual(api);
      expect(await tokens.extendExpiry('no-such-token', at(500), at(10))).toBe(false);
      expect(await tokens.findById('no-such-token')).toBeNull();
    });

    it('ends at the latest of several concurrent extensions', async () => {
      const session = aToken({ expiresAt: at(60) });
      await tokens.insert(session);
      const targets = [70, 95, 80, 90, 75];
      await Promise.all(targets.map((minutes) => tokens.extendExpiry(session.id, at(minutes), at(1))));
      expect((await tokens.findById(session.id))!.expiresAt).toEqual(at(95));
    });

    it("moves a session's credentialsEpoch only from the epoch given", async () => {
      const session = aToken({ credentialsEpoch: 3 });
      const api = aToken({ type: 'uploader', expiresAt: null, credentialsEpoch: null });
      await tokens.insert(session);
      await tokens.insert(api);
      expect(await tokens.moveEpoch(session.id, 2, 4)).toBe(false);
      expect(await tokens.findById(session.id)).toEqual(session);
      expect(await tokens.moveEpoch(session.id, 3, 4)).toBe(true);
      expect(await tokens.findByHash(session.hash)).toEqual({ ...session, credentialsEpoch: 4 });
      expect(await tokens.moveEpoch(session.id, 3, 4)).toBe(false);
      expect(await tokens.moveEpoch(api.id, 0, 1)).toBe(false);
      expect(await tokens.findById(api.id)).toEqual(api);
      expect(await tokens.moveEpoch('no-such-token', 0, 1)).toBe(false);
    });

    it('keeps its own copies: mutating what went in or came out changes nothing stored', async () => {
      const token = aToken({ userId: 'u1', type: 'uploader', expiresAt: at(10) });
      const original = structuredClone(token);
      await tokens.insert(token);
      token.name = 'changed';
      token.expiresAt!.setTime(0);
      token.createdAt.setTime(0);
      expect(await tokens.findById(original.id)).toEqual(original);

      (await tokens.findById(original.id))!.name = 'x';
      (await tokens.findByHash(original.hash))!.expiresAt!.setTime(0);
      (await tokens.listByUser('u1', 'uploader'))[0]!.createdAt.setTime(0);
      expect(await tokens.findByHash(original.hash)).toEqual(original);
    });
  });
}
