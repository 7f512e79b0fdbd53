import { beforeEach, describe, expect, it } from 'vitest';
import type {
  Passkey,
  PasskeyRepository,
  SecondFactorRepository,
  WebAuthnChallenge,
  WebAuthnChallengeRepository,
} from '../../src/application/ports/index.js';
import { at } from './fixtures.js';

const passkey = (id: string, over: Partial<Passkey> = {}): Passkey => ({
  id,
  userId: 'u1',
  credentialId: `cred-${id}`,
  publicKey: 'pQECAyYgASFYIA',
  counter: 0,
  transports: ['internal'],
  name: `Key ${id}`,
  createdAt: at(1),
  lastUsedAt: null,
  ...over,
});

/** Every PasskeyRepository adapter runs this. `make` must return an adapter over empty storage. */
export function passkeyRepositoryContract(name: string, make: () => Promise<PasskeyRepository>): void {
  describe(name, () => {
    let passkeys: PasskeyRepository;
    beforeEach(async () => {
      passkeys = await make();
    });

    it('stores a passkey and finds it by its credential id; lists a user’s oldest first', async () => {
      expect(await passkeys.insert(passkey('p2', { createdAt: at(2) }))).toBe(true);
      expect(await passkeys.insert(passkey('p1'))).toBe(true);
      expect(await passkeys.insert(passkey('p3', { userId: 'u2' }))).toBe(true);
      expect(await passkeys.findByCredentialId('cred-p1')).toEqual(passkey('p1'));
      expect(await passkeys.findByCredentialId('nope')).toBeNull();
      expect((await passkeys.listByUser('u1')).map((p) => p.id)).toEqual(['p1', 'p2']);
      expect(await passkeys.listByUser('u3')).toEqual([]);
    });

    it('refuses a credential id stored already, whoever holds it, racing or not', async () => {
      expect(await passkeys.insert(passkey('p1'))).toBe(true);
      expect(await passkeys.insert(passkey('p2', { userId: 'u2', credentialId: 'cred-p1' }))).toBe(false);
      const racing = await Promise.all([
        passkeys.insert(passkey('a', { credentialId: 'same' })),
        passkeys.insert(passkey('b', { credentialId: 'same', userId: 'u2' })),
      ]);
      expect(racing.filter(Boolean)).toHaveLength(1);
      expect((await passkeys.findByCredentialId('cred-p1'))?.userId).toBe('u1');
    });

    it('records a use only while the counter is still the one read: one of two racing uses passes', async () => {
      await passkeys.insert(passkey('p1', { counter: 5 }));
      expect(await passkeys.recordUse('p1', 4, 9, at(3))).toBe(false);
      const racing = await Promise.all([passkeys.recordUse('p1', 5, 6, at(3)), passkeys.recordUse('p1', 5, 7, at(4))]);
      expect(racing.filter(Boolean)).toHaveLength(1);
      const stored = await passkeys.findByCredentialId('cred-p1');
      expect([6, 7]).toContain(stored?.counter);
      expect(stored?.lastUsedAt).toEqual(stored?.counter === 6 ? at(3) : at(4));
      expect(await passkeys.recordUse('missing', 0, 1, at(5))).toBe(false);
    });

    it('renames and deletes only a passkey of that user', async () => {
      await passkeys.insert(passkey('p1'));
      expect(await passkeys.rename('u2', 'p1', 'Mine')).toBeNull();
      expect(await passkeys.rename('u1', 'p1', 'Laptop')).toEqual(passkey('p1', { name: 'Laptop' }));
      expect(await passkeys.delete('u2', 'p1')).toBe(false);
      expect(await passkeys.delete('u1', 'p1')).toBe(true);
      expect(await passkeys.delete('u1', 'p1')).toBe(false);
      expect(await passkeys.findByCredentialId('cred-p1')).toBeNull();
    });

    it('deletes every passkey of one user', async () => {
      await passkeys.insert(passkey('p1'));
      await passkeys.insert(passkey('p2'));
      await passkeys.insert(passkey('p3', { userId: 'u2' }));
      expect(await passkeys.deleteByUser('u1')).toBe(2);
      expect(await passkeys.deleteByUser('u1')).toBe(0);
      expect(await passkeys.listByUser('u1')).toEqual([]);
      expect(await passkeys.listByUser('u2')).toHaveLength(1);
    });

    it('hands out copies: changing what came back changes nothing stored', async () => {
      const mine = passkey('p1');
      await passkeys.insert(mine);
      mine.transports.push('usb');
      const found = await passkeys.findByCredentialId('cred-p1');
      found!.transports.push('nfc');
      expect((await passkeys.findByCredentialId('cred-p1'))?.transports).toEqual(['internal']);
    });
  });
}

/** Every WebAuthnChallengeRepository adapter runs this. */
export function webauthnChallengeRepositoryContract(name: string, make: () => Promise<WebAuthnChallengeRepository>): void {
  describe(name, () => {
    let challenges: WebAuthnChallengeRepository;
    beforeEach(async () => {
      challenges = await make();
    });

    const challenge: WebAuthnChallenge = {
      challenge: 'c1',
      purpose: 'mfa',
      userId: 'u1',
      mfaTokenHash: 'h1',
      rp: { id: 'coffer.test', origin: 'https://coffer.test' },
      expiresAt: at(10),
    };

    it('gives a challenge back once, to one of two racing takers, for its own purpose only', async () => {
      await challenges.insert(challenge);
      expect(await challenges.take('c1', 'login', at(9))).toBeNull();
      expect(await challenges.take('c1', 'register', at(9))).toBeNull();
      const racing = await Promise.all([challenges.take('c1', 'mfa', at(9)), challenges.take('c1', 'mfa', at(9))]);
      expect(racing.filter((taken) => taken !== null)).toEqual([challenge]);
      expect(await challenges.take('c1', 'mfa', at(9))).toBeNull();
    });

    it('keeps the fields of a sign-in without a user, and never gives back an expired challenge', async () => {
      const login = { ...challenge, challenge: 'c2', purpose: 'login' as const, userId: null, mfaTokenHash: null };
      await challenges.insert(login);
      expect(await challenges.take('c2', 'login', at(9))).toEqual(login);
      await challenges.insert({ ...challenge, challenge: 'c3' });
      expect(await challenges.take('c3', 'mfa', at(10))).toBeNull();
      expect(await challenges.take('c3', 'mfa', at(9))).toBeNull();
    });

    it('refuses a challenge handed out twice', async () => {
      await challenges.insert(challenge);
      await expect(challenges.insert({ ...challenge, userId: 'u2' })).rejects.toThrow();
      expect((await challenges.take('c1', 'mfa', at(0)))?.userId).toBe('u1');
    });
  });
}

/** The passkey count on SecondFactorRepository, run with its contract by every adapter. */
export function passkeySlotsContract(name: string, make: () => Promise<SecondFactorRepository>): void {
  describe(`${name}: passkey slots`, () => {
    let factors: SecondFactorRepository;
    beforeEach(async () => {
      factors = await make();
    });

    it('counts passkeys up to the maximum, creating the record, and exactly to it under a race', async () => {
      expect(await factors.addPasskeySlot('u1', 3, at(1))).toBe(true);
      expect(await factors.find('u1')).toEqual({
        userId: 'u1',
        totpSecret: null,
        pendingTotpSecret: null,
        lastTotpStep: null,
        recoveryCodeHashes: [],
        passkeyCount: 1,
        updatedAt: at(1),
      });
      const racing = await Promise.all(Array.from({ length: 6 }, () => factors.addPasskeySlot('u1', 3, at(2))));
      expect(racing.filter(Boolean)).toHaveLength(2);
      expect((await factors.find('u1'))?.passkeyCount).toBe(3);
      const fresh = await Promise.all(Array.from({ length: 6 }, () => factors.addPasskeySlot('u2', 2, at(2))));
      expect(fresh.filter(Boolean)).toHaveLength(2);
      expect((await factors.find('u2'))?.passkeyCount).toBe(2);
    });

    it('gives a slot back, never below zero', async () => {
      expect(await factors.releasePasskeySlot('u1', at(1))).toBe(false);
      await factors.addPasskeySlot('u1', 5, at(1));
      expect(await factors.releasePasskeySlot('u1', at(2))).toBe(true);
      expect(await factors.releasePasskeySlot('u1', at(2))).toBe(false);
      expect((await factors.find('u1'))?.passkeyCount).toBe(0);
    });

    it('keeps the count through TOTP going on and off, and drops it with everything on a reset', async () => {
      await factors.addPasskeySlot('u1', 5, at(1));
      expect(await factors.startTotp('u1', 'S', at(2))).toBe(true);
      await factors.confirmTotp('u1', { secret: 'S', step: 1, recoveryCodeHashes: ['a'], updatedAt: at(3) });
      await factors.addPasskeySlot('u1', 5, at(4));
      expect(await factors.turnOffTotp('u1', 'S', at(5))).toBe(true);
      expect((await factors.find('u1'))?.passkeyCount).toBe(2);
      expect(await factors.deleteByUser('u1')).toBe(true);
      expect(await factors.find('u1')).toBeNull();
    });
  });
}
