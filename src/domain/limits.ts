import { DomainError } from './errors.js';

/**
 * The per-user maxima and what each counts: the one list of kinds. Validation, views, configuration and reconcile
 * derive theirs from it, so adding a kind here is all it takes (and the compiler names whatever else needs a value).
 */
export const LIMIT_UNITS = {
  storage: 'bytes',
  files: 'items',
  folders: 'items',
  pastes: 'items',
  collections: 'items',
  shares: 'items',
  tokens: 'items',
  requests: 'items',
} as const satisfies Record<string, 'bytes' | 'items'>;
export type LimitKind = keyof typeof LIMIT_UNITS;
export const LIMIT_KINDS = Object.freeze(Object.keys(LIMIT_UNITS) as LimitKind[]);
/** Kinds measured in bytes: written as decimal strings in the API, like every other size. */
export type ByteKind = { [K in LimitKind]: (typeof LIMIT_UNITS)[K] extends 'bytes' ? K : never }[LimitKind];
export type CountKind = Exclude<LimitKind, ByteKind>;
export const isByteKind = (kind: LimitKind): kind is ByteKind => LIMIT_UNITS[kind] === 'bytes';

export type Limits = Record<LimitKind, number>;
export type Usage = Record<LimitKind, number>;
/** Per-user overrides; an absent kind falls back to the configured default. */
export type LimitOverrides = Partial<Limits>;

export const ZERO_USAGE: Usage = Object.freeze(Object.fromEntries(LIMIT_KINDS.map((kind) => [kind, 0])) as Usage);

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

/**
 * A refused change names the limit, its maximum and what is in use (byte counts as decimal strings, as everywhere in
 * the API). `current` is read after the atomic refusal, for the message only.
 */
export function limitReached(kind: LimitKind, max?: number, current?: number): DomainError {
  if (max === undefined || current === undefined) {
    return new DomainError('limit_reached', `The ${kind} limit has been reached`, { limit: kind });
  }
  const unit = isByteKind(kind) ? ' bytes' : '';
  const shown = (n: number) => (isByteKind(kind) ? String(n) : n);
  return new DomainError(
    'limit_reached',
    `The ${kind} limit has been reached: ${current}${unit} of at most ${max}${unit} in use`,
    { limit: kind, max: shown(max), current: shown(current) },
  );
}

export function isValidLimitValue(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}
