import { beforeEach, describe, expect, it } from 'vitest';
import type { PendingSignIn, PendingSignInRepository } from '../../src/application/ports/index.js';
import { at } from './fixtures.js';

export const aPendingSignIn = (fields: Partial<PendingSignIn> = {}): PendingSignIn => ({
  stateHash: 'state-digest',
  browserHash: 'browser-digest',
  nonce: 'nonce',
  verifier: 'verifier',
  redirectUri: 'https://coffer.example/api/auth/oidc/callback',
  next: '/files',
  intent: 'login',
  userId: null,
  expiresAt: at(10),
  ...fields,
});

/** Every PendingSignInRepository adapter runs this. `make` must return an adapter over empty storage. */
export function pendingSignInRepositoryContract(name: string, make: () => Promise<PendingSignInRepository>): void {
  describe(name, () => {
    let pending: PendingSignInRepository;
    beforeEach(async () => {
      pending = await make();
    });

    it('hands a pending sign-in back once, as it was stored', async () => {
      const stored = aPendingSignIn({ intent: 'link', userId: 'u1', next: '/account' });
      await pending.insert(stored);
      expect(await pending.take('state-digest', at(1))).toEqual(stored);
      expect(await pending.take('state-digest', at(1))).toBeNull();
      expect(await pending.take('other-digest', at(1))).toBeNull();
    });

    it('hands nothing back once it has expired', async () => {
      await pending.insert(aPendingSignIn({ expiresAt: at(10) }));
      expect(await pending.take('state-digest', at(10))).toBeNull();
      await pending.insert(aPendingSignIn({ stateHash: 'later', expiresAt: at(10) }));
      expect(await pending.take('later', at(11))).toBeNull();
    });

    it('gives one of many racing callers the sign-in', async () => {
      await pending.insert(aPendingSignIn());
      const taken = await Promise.all(Array.from({ length: 8 }, () => pending.take('state-digest', at(1))));
      expect(taken.filter((t) => t !== null)).toHaveLength(1);
    });

    it('never replaces a pending sign-in with another of the same state (a rejection)', async () => {
      await pending.insert(aPendingSignIn({ nonce: 'first' }));
      await expect(pending.insert(aPendingSignIn({ nonce: 'second' }))).rejects.toThrow();
      expect((await pending.take('state-digest', at(1)))?.nonce).toBe('first');
    });

    it('keeps its own copies', async () => {
      const stored = aPendingSignIn();
      await pending.insert(stored);
      stored.expiresAt.setTime(0);
      stored.nonce = 'changed';
      expect(await pending.take('state-digest', at(1))).toEqual(aPendingSignIn());
    });
  });
}
