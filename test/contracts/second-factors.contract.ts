import { beforeEach, describe, expect, it } from 'vitest';
import type { MfaChallengeRepository, SecondFactorRepository } from '../../src/application/ports/index.js';
import { at } from './fixtures.js';

const confirmation = (secret: string, step = 100, hashes = ['h1', 'h2']) => ({
  secret,
  step,
  recoveryCodeHashes: hashes,
  updatedAt: at(2),
});

/** Every SecondFactorRepository adapter runs this. `make` must return an adapter over empty storage. */
export function secondFactorRepositoryContract(name: string, make: () => Promise<SecondFactorRepository>): void {
  describe(name, () => {
    let factors: SecondFactorRepository;
    beforeEach(async () => {
      factors = await make();
    });

    it('keeps a setup pending until it is confirmed with that very secret', async () => {
      expect(await factors.find('u1')).toBeNull();
      expect(await factors.startTotp('u1', 'S1', at(1))).toBe(true);
      expect(await factors.find('u1')).toEqual({
        userId: 'u1',
        totpSecret: null,
        pendingTotpSecret: 'S1',
        lastTotpStep: null,
        recoveryCodeHashes: [],
        passkeyCount: 0,
        updatedAt: at(1),
      });
      expect(await factors.startTotp('u1', 'S2', at(1))).toBe(true);
      expect(await factors.confirmTotp('u1', confirmation('S1'))).toBe(false);
      expect(await factors.confirmTotp('u2', confirmation('S2'))).toBe(false);
      expect(await factors.confirmTotp('u1', confirmation('S2'))).toBe(true);
      expect(await factors.find('u1')).toEqual({
        userId: 'u1',
        totpSecret: 'S2',
        pendingTotpSecret: null,
        lastTotpStep: 100,
        recoveryCodeHashes: ['h1', 'h2'],
        passkeyCount: 0,
        updatedAt: at(2),
      });
      // On: neither a new setup nor a second confirmation writes anything.
      expect(await factors.startTotp('u1', 'S3', at(3))).toBe(false);
      expect(await factors.confirmTotp('u1', confirmation('S2'))).toBe(false);
      expect((await factors.find('u1'))?.pendingTotpSecret).toBeNull();
    });

    it('accepts each TOTP step once, and never one at or before the last used', async () => {
      await factors.startTotp('u1', 'S', at(1));
      await factors.confirmTotp('u1', confirmation('S', 100));
      expect(await factors.useTotpStep('u1', 'S', 100)).toBe(false);
      expect(await factors.useTotpStep('u1', 'S', 99)).toBe(false);
      expect(await factors.useTotpStep('u1', 'other', 101)).toBe(false);
      expect(await factors.useTotpStep('u1', 'S', 101)).toBe(true);
      expect(await factors.useTotpStep('u1', 'S', 101)).toBe(false);
      const racing = await Promise.all([factors.useTotpStep('u1', 'S', 102), factors.useTotpStep('u1', 'S', 102)]);
      expect(racing.filter(Boolean)).toHaveLength(1);
      expect((await factors.find('u1'))?.lastTotpStep).toBe(102);
    });

    it('spends each recovery code once, and replaces them all together', async () => {
      await factors.startTotp('u1', 'S', at(1));
      await factors.confirmTotp('u1', confirmation('S', 1, ['a', 'b', 'c']));
      const racing = await Promise.all([factors.useRecoveryCode('u1', 'b'), factors.useRecoveryCode('u1', 'b')]);
      expect(racing.filter(Boolean)).toHaveLength(1);
      expect(await factors.useRecoveryCode('u1', 'nope')).toBe(false);
      expect(await factors.useRecoveryCode('u2', 'a')).toBe(false);
      expect((await factors.find('u1'))?.recoveryCodeHashes).toEqual(['a', 'c']);
      expect(await factors.replaceRecoveryCodes('u1', 'other', ['x'], at(3))).toBe(false);
      expect(await factors.replaceRecoveryCodes('u1', 'S', ['x', 'y'], at(3))).toBe(true);
      expect(await factors.useRecoveryCode('u1', 'a')).toBe(false);
      expect(await factors.useRecoveryCode('u1', 'x')).toBe(true);
      expect((await factors.find('u1'))?.recoveryCodeHashes).toEqual(['y']);
    });

    it('turns TOTP off only with the secret that is on; an admin reset removes everything', async () => {
      await factors.startTotp('u1', 'S', at(1));
      // Pending only: nothing is on, so no code (recovery or TOTP) is accepted.
      expect(await factors.useTotpStep('u1', 'S', 5)).toBe(false);
      await factors.confirmTotp('u1', confirmation('S', 1, ['a']));
      expect(await factors.turnOffTotp('u1', 'other', at(3))).toBe(false);
      expect(await factors.turnOffTotp('u1', 'S', at(3))).toBe(true);
      expect(await factors.turnOffTotp('u1', 'S', at(3))).toBe(false);
      const off = await factors.find('u1');
      expect(off).toMatchObject({ totpSecret: null, pendingTotpSecret: null, lastTotpStep: null, recoveryCodeHashes: [] });
      expect(await factors.useRecoveryCode('u1', 'a')).toBe(false);
      expect(await factors.startTotp('u1', 'T', at(4))).toBe(true);
      expect(await factors.deleteByUser('u1')).toBe(true);
      expect(await factors.deleteByUser('u1')).toBe(false);
      expect(await factors.find('u1')).toBeNull();
    });
  });
}

/** Every MfaChallengeRepository adapter runs this. */
export function mfaChallengeRepositoryContract(name: string, make: () => Promise<MfaChallengeRepository>): void {
  describe(name, () => {
    let challenges: MfaChallengeRepository;
    beforeEach(async () => {
      challenges = await make();
    });

    const challenge = { hash: 'h1', userId: 'u1', credentialsEpoch: 2, expiresAt: at(10) };

    it('finds a challenge until it expires, and takes it once', async () => {
      await challenges.insert(challenge);
      expect(await challenges.find('h1', at(9))).toEqual(challenge);
      expect(await challenges.find('h1', at(10))).toBeNull();
      expect(await challenges.find('h2', at(9))).toBeNull();
      const racing = await Promise.all([challenges.take('h1', at(9)), challenges.take('h1', at(9))]);
      expect(racing.filter(Boolean)).toHaveLength(1);
      expect(await challenges.find('h1', at(9))).toBeNull();
      // An expired challenge cannot be taken.
      await challenges.insert({ ...challenge, hash: 'h2' });
      expect(await challenges.take('h2', at(10))).toBe(false);
    });

    it('refuses a second challenge with the same digest', async () => {
      await challenges.insert(challenge);
      await expect(challenges.insert({ ...challenge, userId: 'u2' })).rejects.toThrow();
      expect((await challenges.find('h1', at(0)))?.userId).toBe('u1');
    });
  });
}
