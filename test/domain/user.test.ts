import { describe, expect, it } from 'vitest';
import { isValidPassword, isValidUsername, normalizeUsername } from '../../src/domain/index.js';

describe('isValidUsername', () => {
  it.each(['al', 'alice', 'Alice_01', 'a.b-c', '9lives', 'a'.repeat(32)])('accepts %s', (name) => {
    expect(isValidUsername(name)).toBe(true);
  });

  it.each(['', 'a', '_alice', '-alice', '.alice', 'al ice', 'alice/', 'al@ice', 'élodie', 'a'.repeat(33), ' alice'])(
    'rejects %j',
    (name) => {
      expect(isValidUsername(name)).toBe(false);
    },
  );
});

describe('isValidPassword', () => {
  it('accepts 8 to 256 characters', () => {
    expect(isValidPassword('12345678')).toBe(true);
    expect(isValidPassword('x'.repeat(256))).toBe(true);
  });

  it('rejects fewer than 8 and more than 256 characters', () => {
    expect(isValidPassword('')).toBe(false);
    expect(isValidPassword('1234567')).toBe(false);
    expect(isValidPassword('x'.repeat(257))).toBe(false);
  });

  it('counts characters, not UTF-16 code units', () => {
    // Seven astral characters are fourteen code units but only seven characters.
    expect(isValidPassword('😀'.repeat(7))).toBe(false);
    expect(isValidPassword('😀'.repeat(8))).toBe(true);
    expect(isValidPassword('😀'.repeat(256))).toBe(true);
  });
});

describe('normalizeUsername', () => {
  it('compares usernames without regard to case', () => {
    expect(normalizeUsername('Alice')).toBe(normalizeUsername('aLICE'));
  });
});
