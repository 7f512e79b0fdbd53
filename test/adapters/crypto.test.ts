import { describe, expect, it } from 'vitest';
import { SystemClock } from '../../src/adapters/clock/system-clock.js';
import { CryptoIdGenerator } from '../../src/adapters/crypto/crypto-id-generator.js';
import { CryptoTokenSecrets } from '../../src/adapters/crypto/crypto-token-secrets.js';

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function distinct(make: () => string, n = 2000): number {
  return new Set(Array.from({ length: n }, make)).size;
}

describe('CryptoIdGenerator', () => {
  const ids = new CryptoIdGenerator();

  it('makes 22-character base64url ids (128 bits)', () => {
    for (let i = 0; i < 200; i++) {
      for (const id of [ids.newId(), ids.newShareId()]) {
        expect(id).toHaveLength(22);
        expect(id).toMatch(BASE64URL);
        expect(Buffer.from(id, 'base64url')).toHaveLength(16);
      }
    }
  });

  it('never repeats itself', () => {
    expect(distinct(() => ids.newId())).toBe(2000);
    expect(distinct(() => ids.newShareId())).toBe(2000);
  });

  it('uses the whole alphabet, so the bits are really random', () => {
    const seen = new Set([...Array.from({ length: 500 }, () => ids.newShareId()).join('')]);
    expect(seen.size).toBe(64);
  });
});

describe('CryptoTokenSecrets', () => {
  const secrets = new CryptoTokenSecrets();

  it('makes 256-bit base64url secrets that never repeat', () => {
    const secret = secrets.newSecret();
    expect(secret).toHaveLength(43);
    expect(secret).toMatch(BASE64URL);
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    expect(distinct(() => secrets.newSecret())).toBe(2000);
  });

  it('hashes deterministically to SHA-256 hex, different secrets to different digests', () => {
    const secret = secrets.newSecret();
    expect(secrets.hash(secret)).toBe(secrets.hash(secret));
    expect(secrets.hash(secret)).toMatch(/^[0-9a-f]{64}$/);
    expect(secrets.hash(secret)).not.toBe(secrets.hash(secrets.newSecret()));
    expect(secrets.hash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('SystemClock', () => {
  it('tells the current time as a fresh Date', () => {
    const clock = new SystemClock();
    const before = Date.now();
    const now = clock.now();
    expect(now.getTime()).toBeGreaterThanOrEqual(before);
    expect(now.getTime()).toBeLessThanOrEqual(Date.now());
    expect(clock.now()).not.toBe(now);
  });
});
