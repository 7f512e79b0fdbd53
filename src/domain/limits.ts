import { DomainError } from './errors.js';

/** The seven per-user maxima. Storage is in bytes; the others are counts. */
export const LIMIT_KINDS = ['storage', 'files', 'folders', 'pastes', 'collections', 'shares', 'tokens'] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];
export type CountKind = Exclude<LimitKind, 'storage'>;

export type Limits = Record<LimitKind, number>;
export type Usage = Record<LimitKind, number>;
/** Per-user overrides; an absent kind falls back to the configured default. */
export type LimitOverrides = Partial<Limits>;

export const ZERO_USAGE: Usage = Object.freeze({
  storage: 0,
  files: 0,
  folders: 0,
  pastes: 0,
  collections: 0,
  shares: 0,
  tokens: 0,
});

export function effectiveLimits(defaults: Limits, overrides: LimitOverrides): Limits {
  const out = { ...defaults };
  for (const kind of LIMIT_KINDS) {
    const value = overrides[kind];
    if (value !== undefined) out[kind] = value;
  }
  return out;
}

/** The pure rule every counter follows: a change fits when the result stays within [0, max]. */
export function fits(current: number, amount: number, max: number): boolean {
  return current + amount <= max;
}

export function limitReached(kind: LimitKind): DomainError {
  return new DomainError('limit_reached', `The ${kind} limit has been reached`, { limit: kind });
}

export function isValidLimitValue(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}
