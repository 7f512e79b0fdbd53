import { describe, expect, it } from 'vitest';
import type { Ports } from '../../src/application/index.js';
import { failure, makeCore, sessionOf, signUp } from '../support/core.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Counts the calls each named repository method gets, through the ports the core is built on. */
function counting(calls: Map<string, number>) {
  const wrap = <T extends object>(name: string, target: T): T =>
    new Proxy(target, {
      get(obj, key, receiver) {
        const value: unknown = Reflect.get(obj, key, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const method = `${name}.${String(key)}`;
          calls.set(method, (calls.get(method) ?? 0) + 1);
          return (value as (...a: unknown[]) => unknown).apply(obj, args);
        };
      },
    });
  return (ports: Ports): Ports => ({
    ...ports,
    callers: wrap('callers', ports.callers),
    tokens: wrap('tokens', ports.tokens),
    users: wrap('users', ports.users),
  });
}

async function outcome(ctx: ReturnType<typeof makeCore>, token: string): Promise<string> {
  return ctx.core.authenticate.execute({ token }).then(
    () => 'works',
    (err: { code?: string }) => err.code ?? 'error',
  );
}

describe('a session lives while it is used', () => {
  it('stays valid when used every day for 40 days with a 30-day lifetime', async () => {
    const ctx = makeCore({ sessionTtlMs: 30 * DAY_MS });
    const { token } = await signUp(ctx, 'alice');
    for (let day = 1; day <= 40; day++) {
      ctx.clock.advance(DAY_MS);
      expect(await outcome(ctx, token), `day ${day}`).toBe('works');
    }
  });

  it('expires 30 days after its last use when left unused', async () => {
    const ctx = makeCore({ sessionTtlMs: 30 * DAY_MS });
    const { token } = await signUp(ctx, 'alice');
    const login = async () => (sessionOf(await ctx.core.login.execute({ username: 'alice', password: 'alice-password' }))).token;
    const [untilTheEnd, pastTheEnd] = [await login(), await login()];
    ctx.clock.advance(10 * DAY_MS);
    expect(await outcome(ctx, token)).toBe('works');
    ctx.clock.advance(20 * DAY_MS - 1);
    expect(await outcome(ctx, untilTheEnd)).toBe('works');
    ctx.clock.advance(1);
    expect(await outcome(ctx, pastTheEnd)).toBe('unauthorized');
    // Used on day 10, so it lives to day 40.
    ctx.clock.advance(10 * DAY_MS - 1);
    expect(await outcome(ctx, token)).toBe('works');
    ctx.clock.advance(30 * DAY_MS);
    expect(await outcome(ctx, token)).toBe('unauthorized');
  });

  it('never outlives SESSION_MAX_DAYS after its login, however often it is used', async () => {
    const ctx = makeCore({ sessionTtlMs: 30 * DAY_MS, sessionMaxMs: 60 * DAY_MS });
    const { token } = await signUp(ctx, 'alice');
    for (let hour = 6; hour < 60 * 24; hour += 6) {
      ctx.clock.advance(6 * HOUR_MS);
      expect(await outcome(ctx, token), `hour ${hour}`).toBe('works');
    }
    ctx.clock.advance(6 * HOUR_MS - 1);
    expect(await outcome(ctx, token)).toBe('works');
    ctx.clock.advance(1);
    expect(await outcome(ctx, token)).toBe('unauthorized');
    expect(await ctx.ports.tokens.findByHash(ctx.ports.secrets.hash(token))).toBeNull();
  });

  it('ends at the default maximum of 365 days', async () => {
    const ctx = makeCore({ sessionTtlMs: 30 * DAY_MS });
    const { token } = await signUp(ctx, 'alice');
    for (let day = 1; day < 365; day++) {
      ctx.clock.advance(DAY_MS);
      expect(await outcome(ctx, token), `day ${day}`).toBe('works');
    }
    ctx.clock.advance(DAY_MS);
    expect(await outcome(ctx, token)).toBe('unauthorized');
  });

  it('leaves API tokens without expiry', async () => {
    const ctx = makeCore({ sessionTtlMs: 30 * DAY_MS, sessionMaxMs: 60 * DAY_MS });
    const { actor } = await signUp(ctx, 'alice');
    const api = await ctx.core.createApiToken.execute({ actor, name: 'ci' });
    ctx.clock.advance(1000 * DAY_MS);
    expect(await outcome(ctx, api.token)).toBe('works');
    expect((await ctx.ports.tokens.findByHash(ctx.ports.secrets.hash(api.token)))!.expiresAt).toBeNull();
  });

  it('does not bring back a session that already expired', async () => {
    const ctx = makeCore({ sessionTtlMs: 30 * DAY_MS });
    const { token } = await signUp(ctx, 'alice');
    ctx.clock.advance(30 * DAY_MS);
    expect((await failure(ctx.core.authenticate.execute({ token }))).message).toBe('The session has expired');
    ctx.clock.advance(-DAY_MS);
    expect(await outcome(ctx, token)).toBe('unauthorized');
  });
});

describe('what keeping a session alive costs', () => {
  it('reads the token with its user once per request, and writes the expiry at most once an hour', async () => {
    const calls = new Map<string, number>();
    const ctx = makeCore({ sessionTtlMs: 30 * DAY_MS, wrapPorts: counting(calls) });
    const { token } = await signUp(ctx, 'alice');
    calls.clear();
    // 120 requests over two hours: every minute.
    for (let minute = 1; minute <= 120; minute++) {
      ctx.clock.advance(60_000);
      expect(await outcome(ctx, token)).toBe('works');
    }
    expect(calls.get('callers.findByTokenHash')).toBe(120);
    expect(calls.get('tokens.extendExpiry')).toBe(2);
    expect([...calls.keys()].sort()).toEqual(['callers.findByTokenHash', 'tokens.extendExpiry']);
    const stored = await ctx.ports.tokens.findByHash(ctx.ports.secrets.hash(token));
    expect(stored!.expiresAt).toEqual(new Date(ctx.clock.now().getTime() + 30 * DAY_MS));
  });

  it('refreshes a short-lived session once 1% of its lifetime has passed', async () => {
    const calls = new Map<string, number>();
    const ctx = makeCore({ sessionTtlMs: HOUR_MS, wrapPorts: counting(calls) });
    const { token } = await signUp(ctx, 'alice');
    calls.clear();
    ctx.clock.advance(HOUR_MS / 100 - 1);
    await outcome(ctx, token);
    expect(calls.get('tokens.extendExpiry')).toBeUndefined();
    ctx.clock.advance(1);
    await outcome(ctx, token);
    expect(calls.get('tokens.extendExpiry')).toBe(1);
  });
});
