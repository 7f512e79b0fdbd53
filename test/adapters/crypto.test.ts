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

describe('CryptoTokenSecrets keyed digests', () => {
  const secrets = new CryptoTokenSecrets();

  it('is HMAC-SHA256 in base64url: the same key and message give the same digest, another key another', () => {
    const mac = secrets.mac('key one', 'message');
    expect(mac).toMatch(BASE64URL);
    expect(Buffer.from(mac, 'base64url')).toHaveLength(32);
    expect(secrets.mac('key one', 'message')).toBe(mac);
    expect(secrets.mac('key two', 'message')).not.toBe(mac);
    expect(secrets.mac('key one', 'messagE')).not.toBe(mac);
  });

  it('matches only the exact digest of that key and message', () => {
    const mac = secrets.mac('key', 'message');
    expect(secrets.macMatches('key', 'message', mac)).toBe(true);
    for (const other of ['', mac.slice(1), `${mac}A`, mac.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))]) {
      expect(secrets.macMatches('key', 'message', other)).toBe(false);
    }
    expect(secrets.macMatches('other key', 'message', mac)).toBe(false);
  });
});
