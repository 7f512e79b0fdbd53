import { describe, expect, it } from 'vitest';
import { makeCore, signUp } from '../../support/core.js';
import { totpAt } from '../../support/totp.js';

describe('login racing a TOTP confirmation', () => {
  it('a login that read "no second factor" just before TOTP went on gets a challenge, and no session survives', async () => {
    const ctx = makeCore();
    const alice = await signUp(ctx, 'alice');
    const { secret } = await ctx.core.startTotp.execute({ actor: alice.actor });
    const factors = ctx.ports.secondFactors;
    const find = factors.find.bind(factors);
    let raced = false;
    // The login's first read of the second factors sees TOTP off; the confirmation (and its sweep of the other
    // sessions) lands right after it, before the login's session is inserted.
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
    expect(outcome).toMatchObject({ mfaRequired: true, methods: ['totp', 'recovery'] });
    const sessions = await ctx.ports.tokens.listByUser(alice.userId, 'session');
    expect(sessions.map((s) => s.id)).toEqual([alice.actor.tokenId]);
  });
});
