import { describe, expect, it } from 'vitest';
import { Argon2Hasher, OWASP_ARGON2 } from '../../src/adapters/argon2/argon2-hasher.js';

const CHEAP = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

/** Reads the algorithm and parameters out of a PHC string (`$argon2id$v=19$m=..,t=..,p=..$salt$hash`). */
function phc(digest: string): { id: string; params: Record<string, number>; parts: number } {
  const parts = digest.split('$');
  const pairs = (parts[3] ?? '').split(',').map((kv) => kv.split('='));
  const params = Object.fromEntries(pairs.map(([k, v]) => [k, Number(v)]));
  return { id: parts[1] ?? '', params, parts: parts.length };
}

describe('Argon2Hasher', () => {
  const hasher = new Argon2Hasher(CHEAP);

  it('hashes with argon2id and the given parameters', async () => {
    const digest = await hasher.hash('correct horse');
    expect(phc(digest)).toEqual({ id: 'argon2id', params: { m: 1024, t: 1, p: 1 }, parts: 6 });
    expect(digest).not.toContain('correct horse');
  });

  it('salts every hash', async () => {
    expect(await hasher.hash('same password')).not.toBe(await hasher.hash('same password'));
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const digest = await hasher.hash('correct horse');
    expect(await hasher.verify(digest, 'correct horse')).toBe(true);
    expect(await hasher.verify(digest, 'correct horsE')).toBe(false);
    expect(await hasher.verify(digest, '')).toBe(false);
  });

  it('answers false, never throws, for a malformed or foreign hash', async () => {
    const digest = await hasher.hash('pw123456');
    const malformed = ['', 'not a hash', '$argon2id$', digest.slice(0, -10), '$2b$10$abcdefghijklmnopqrstuv'];
    for (const bad of [...malformed, 'x'.repeat(10_000)]) {
      await expect(hasher.verify(bad, 'pw123456')).resolves.toBe(false);
    }
  });

  it('uses at least the OWASP floor in production', async () => {
    expect(OWASP_ARGON2).toEqual({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    const digest = await new Argon2Hasher(OWASP_ARGON2).hash('pw123456');
    expect(phc(digest).params).toEqual({ m: 19456, t: 2, p: 1 });
  });
});
