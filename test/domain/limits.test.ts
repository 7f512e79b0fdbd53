import { describe, expect, it } from 'vitest';
import type { Limits } from '../../src/domain/index.js';
import { effectiveLimits, fits, isValidLimitValue, LIMIT_KINDS, limitReached } from '../../src/domain/index.js';

const defaults: Limits = { storage: 1000, files: 10, folders: 10, pastes: 10, collections: 10, shares: 10, tokens: 5, requests: 5 };

describe('effectiveLimits', () => {
  it('is the defaults when there are no overrides', () => {
    expect(effectiveLimits(defaults, {})).toEqual(defaults);
  });

  it('takes each override over its default, including zero', () => {
    expect(effectiveLimits(defaults, { storage: 5, tokens: 0 })).toEqual({ ...defaults, storage: 5, tokens: 0 });
  });

  it('does not change the defaults it was given', () => {
    effectiveLimits(defaults, { files: 1 });
    expect(defaults.files).toBe(10);
  });
});

describe('fits', () => {
  it('allows a change up to and including the maximum', () => {
    expect(fits(4, 1, 5)).toBe(true);
    expect(fits(0, 5, 5)).toBe(true);
  });

  it('refuses a change past the maximum', () => {
    expect(fits(5, 1, 5)).toBe(false);
    expect(fits(0, 6, 5)).toBe(false);
    expect(fits(0, 1, 0)).toBe(false);
  });
});

describe('isValidLimitValue', () => {
  it('accepts non-negative safe integers', () => {
    expect(isValidLimitValue(0)).toBe(true);
    expect(isValidLimitValue(Number.MAX_SAFE_INTEGER)).toBe(true);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 1])('rejects %s', (value) => {
    expect(isValidLimitValue(value)).toBe(false);
  });
});

describe('limitReached', () => {
  it('names the limit for every kind', () => {
    for (const kind of LIMIT_KINDS) {
      const err = limitReached(kind);
      expect(err.code).toBe('limit_reached');
      expect(err.details).toEqual({ limit: kind });
    }
  });
});
