import { beforeEach, describe, expect, it } from 'vitest';
import type { Callers, TokenRepository, UserRepository } from '../../src/application/ports/index.js';
import { aToken, aUser } from './fixtures.js';

export interface CallerStores {
  callers: Callers;
  tokens: TokenRepository;
  users: UserRepository;
}

/** Every Callers adapter runs this, over the token and user repositories of the same (empty) storage. */
export function callersContract(name: string, make: () => Promise<CallerStores>): void {
  describe(name, () => {
    let stores: CallerStores;
    beforeEach(async () => {
      stores = await make();
    });

    it('finds a token by its hash together with its user, as stored', async () => {
      const user = aUser({ type: 'admin', credentialsEpoch: 4, keptSessionId: 'kept', limits: { files: 3 } });
      const token = aToken({ userId: user.id, credentialsEpoch: 4 });
      const other = aToken({ userId: user.id, type: 'uploader', name: 'ci', expiresAt: null, credentialsEpoch: null });
      await stores.users.insert(user);
      await stores.tokens.insert(token);
      await stores.tokens.insert(other);
      expect(await stores.callers.findByTokenHash(token.hash)).toEqual({ token, user });
      expect(await stores.callers.findByTokenHash(other.hash)).toEqual({ token: other, user });
    });

    it('answers null for an unknown hash, and a null user for a token that outlived its user', async () => {
      const orphan = aToken({ userId: 'gone-user' });
      await stores.tokens.insert(orphan);
      expect(await stores.callers.findByTokenHash('no-such-hash')).toBeNull();
      expect(await stores.callers.findByTokenHash(orphan.hash)).toEqual({ token: orphan, user: null });
    });

    it("sees the user's latest type and epoch, not the ones the token was issued under", async () => {
      const user = aUser();
      const token = aToken({ userId: user.id });
      await stores.users.insert(user);
      await stores.tokens.insert(token);
      await stores.users.setType(user.id, 'admin', user.updatedAt);
      await stores.users.changeOwnPassword(user.id, { passwordHash: 'new-hash', fromEpoch: 0, keptSessionId: token.id, updatedAt: user.updatedAt });
      expect((await stores.callers.findByTokenHash(token.hash))?.user).toMatchObject({ type: 'admin', credentialsEpoch: 1, keptSessionId: token.id, passwordHash: 'new-hash' });
    });
  });
}
