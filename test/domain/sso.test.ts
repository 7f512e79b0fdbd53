import { describe, expect, it } from 'vitest';
import { isLocalPath, isValidUsername, usernameFrom, usernameWithSuffix } from '../../src/domain/index.js';

describe('usernameFrom', () => {
  it('makes a valid username of whatever a claim holds', () => {
    const cases: [string, string][] = [
      ['alice', 'alice'],
      ['Zoë Smith', 'Zoe-Smith'],
      ['alice@example.com', 'alice-example.com'],
      ['  --leading', 'leading'],
      ['trailing.-', 'trailing'],
      ['渡辺', 'user'],
      ['x', 'user'],
      ['a'.repeat(40), 'a'.repeat(32)],
      ['ab/../cd', 'ab-..-cd'],
    ];
    for (const [claim, expected] of cases) {
      expect(usernameFrom(claim), claim).toBe(expected);
      expect(isValidUsername(usernameFrom(claim))).toBe(true);
    }
  });

  it('adds a suffix within the maximum length', () => {
    expect(usernameWithSuffix('carol', 2)).toBe('carol-2');
    const long = usernameWithSuffix('a'.repeat(32), 12);
    expect(long).toBe(`${'a'.repeat(29)}-12`);
    expect(isValidUsername(long)).toBe(true);
    expect(usernameWithSuffix(`${'a'.repeat(29)}.b`, 7)).toBe(`${'a'.repeat(29)}-7`);
  });
});

describe('isLocalPath', () => {
  it('accepts a path on our own origin', () => {
    for (const next of ['/', '/files', '/shares?view=all', '/f/abc#top']) expect(isLocalPath(next), next).toBe(true);
  });

  it('refuses anything a browser could take to another origin', () => {
    for (const next of ['', 'files', 'https://elsewhere.example', '//elsewhere.example', '/\\elsewhere.example', '/x\\y', '/a b', '/\tx', '/\u0000', `/${'a'.repeat(2048)}`, 'javascript:alert(1)']) {
      expect(isLocalPath(next), JSON.stringify(next)).toBe(false);
    }
  });
});
