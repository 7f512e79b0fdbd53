import { describe, expect, it } from 'vitest';
import { makeCore, signUp } from '../../support/core.js';
import { totpAt } from '../../support/totp.js';

describe('login racing a TOTP confirmation', () => {
  it('a login that read "no second factor" just before TOTP went on leaves no session that works', async () => {
    const ctx = makeCore();
    const alice = await signUp(ctx, 'alice');
    const { secret } = await ctx.core.startTotp.execute({ actor: alice.actor });
    const factors = ctx.ports.secondFactors;
    const find = factors.find.bind(factors);
    let raced = false;
    // The login reads the second factors once, after inserting its session: it sees TOTP off, and the confirmation
    // (with its sweep of the other sessions) lands right after that read.
    factors.find = async (userId) => {
      const seen = await find(userId);
      if (!raced) {
        raced = true;
        await ctx.core.confirmTotp.execute({ actor: alice.actor, code: totpAt(secret, ctx.clock.now()) });
      }
      return seen;
    };
    const outcome = await ctx.core.login.execute({ username: 'alice', password: 'alice-password' });
    factors.find = find;
    expect(raced).toBe(true);
    // The answer is a session token the sweep has already ended: it authenticates nothing.
    expect('token' in outcome).toBe(true);
    if ('token' in outcome) await expect(ctx.core.authenticate.execute({ token: outcome.token })).rejects.toMatchObject({ code: 'unauthorized' });
    const sessions = await ctx.ports.tokens.listByUser(alice.userId, 'session');
    expect(sessions.map((s) => s.id)).toEqual([alice.actor.tokenId]);
  });
});

describe('login after TOTP went on', () => {
  it('gets a challenge and takes back the session it inserted', async () => {
    const ctx = makeCore();
    const alice = await signUp(ctx, 'alice');
    const { secret } = await ctx.core.startTotp.execute({ actor: alice.actor });
    await ctx.core.confirmTotp.execute({ actor: alice.actor, code: totpAt(secret, ctx.clock.now()) });
    const outcome = await ctx.core.login.execute({ username: 'alice', password: 'alice-password' });
    expect(outcome).toMatchObject({ mfaRequired: true, methods: ['totp', 'recovery'] });
    const sessions = await ctx.ports.tokens.listByUser(alice.userId, 'session');
    expect(sessions.map((s) => s.id)).toEqual([alice.actor.tokenId]);
  });
});
