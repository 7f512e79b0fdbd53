import { describe, expect, it } from 'vitest';
import { firstExpiry, isCurrentFor, isExpired, refreshedExpiry, type Token } from '../../src/domain/index.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const T0 = new Date('2026-11-22T10:00:00.000Z');
const after = (ms: number) => new Date(T0.getTime() + ms);
const LIFETIME = { idleMs: 30 * DAY_MS, maxMs: 365 * DAY_MS };

function session(fields: Partial<Token> = {}): Token {
  return {
    id: 's1',
    userId: 'u1',
    type: 'session',
    name: 'session',
    hash: 'h',
    createdAt: T0,
    expiresAt: firstExpiry(T0, LIFETIME),
    credentialsEpoch: 0,
    ...fields,
  };
}

describe('session lifetime', () => {
  it('starts at the idle lifetime, or the maximum when that is shorter', () => {
    expect(firstExpiry(T0, LIFETIME)).toEqual(after(30 * DAY_MS));
    expect(firstExpiry(T0, { idleMs: 30 * DAY_MS, maxMs: DAY_MS })).toEqual(after(DAY_MS));
  });

  it('ends at the stored expiry, and at the maximum after login as configured now, whichever comes first', () => {
    const token = session({ expiresAt: after(200 * DAY_MS) });
    expect(isExpired(token, after(200 * DAY_MS - 1), LIFETIME)).toBe(false);
    expect(isExpired(token, after(200 * DAY_MS), LIFETIME)).toBe(true);
    // SESSION_MAX_DAYS lowered to 90 after this session's expiry was pushed past it.
    const lowered = { idleMs: 30 * DAY_MS, maxMs: 90 * DAY_MS };
    expect(isExpired(token, after(90 * DAY_MS - 1), lowered)).toBe(false);
    expect(isExpired(token, after(90 * DAY_MS), lowered)).toBe(true);
    expect(isExpired(session({ type: 'uploader', expiresAt: null }), after(1000 * DAY_MS), lowered)).toBe(false);
  });

  it('is refreshed once it has fallen behind by 1% of the idle lifetime, at most an hour, up to the maximum', () => {
    const token = session();
    expect(refreshedExpiry(token, after(HOUR_MS - 1), LIFETIME)).toBeNull();
    expect(refreshedExpiry(token, after(HOUR_MS), LIFETIME)).toEqual(after(HOUR_MS + 30 * DAY_MS));
    const short = { idleMs: HOUR_MS, maxMs: DAY_MS };
    const brief = session({ expiresAt: firstExpiry(T0, short) });
    expect(refreshedExpiry(brief, after(35_999), short)).toBeNull();
    expect(refreshedExpiry(brief, after(36_000), short)).toEqual(after(36_000 + HOUR_MS));
    // Near the maximum the target is the maximum itself, and nothing once it is stored.
    const late = session({ expiresAt: after(350 * DAY_MS) });
    expect(refreshedExpiry(late, after(340 * DAY_MS), LIFETIME)).toEqual(after(365 * DAY_MS));
    expect(refreshedExpiry(session({ expiresAt: after(365 * DAY_MS) }), after(340 * DAY_MS), LIFETIME)).toBeNull();
    expect(refreshedExpiry(session({ type: 'uploader', expiresAt: null }), after(DAY_MS), LIFETIME)).toBeNull();
  });
});

describe('a session under a password change', () => {
  it('is current at its own epoch, or as the kept session at the epoch just before, and never otherwise', () => {
    expect(isCurrentFor(session({ credentialsEpoch: 2 }), { credentialsEpoch: 2, keptSessionId: null })).toBe(true);
    expect(isCurrentFor(session({ credentialsEpoch: 1 }), { credentialsEpoch: 2, keptSessionId: null })).toBe(false);
    expect(isCurrentFor(session({ credentialsEpoch: 1 }), { credentialsEpoch: 2, keptSessionId: 's1' })).toBe(true);
    expect(isCurrentFor(session({ credentialsEpoch: 0 }), { credentialsEpoch: 2, keptSessionId: 's1' })).toBe(false);
    expect(isCurrentFor(session({ id: 's2', credentialsEpoch: 1 }), { credentialsEpoch: 2, keptSessionId: 's1' })).toBe(
      false,
    );
    expect(isCurrentFor(session({ type: 'uploader', credentialsEpoch: null }), { credentialsEpoch: 9, keptSessionId: null })).toBe(true);
  });
});
