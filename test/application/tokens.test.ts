import { describe, expect, it } from 'vitest';
import { failure, makeCore, signUp } from '../support/core.js';

describe('createApiToken', () => {
  it('returns the secret once, which authenticates as an uploader of that user', async () => {
    const ctx = makeCore();
    const { actor, userId } = await signUp(ctx, 'alice');
    const created = await ctx.core.createApiToken.execute({ actor, name: '  ci upload  ' });
    expect(created).toEqual({
      id: expect.any(String),
      name: 'ci upload',
      scope: 'uploader',
      token: expect.any(String),
      createdAt: '2026-11-22T10:00:00.000Z',
    });
    const uploader = await ctx.core.authenticate.execute({ token: created.token });
    expect(uploader).toEqual({ userId, userType: 'user', via: 'uploader', tokenId: created.id, limits: {} });
    const stored = await ctx.ports.tokens.findById(created.id);
    expect(stored).toMatchObject({ type: 'uploader', expiresAt: null, hash: ctx.ports.secrets.hash(created.token) });
    expect((await ctx.core.getUsage.execute({ actor })).tokens.current).toBe(1);
  });

  it('never expires', async () => {
    const ctx = makeCore({ sessionTtlMs: 1000 });
    const { actor } = await signUp(ctx, 'alice');
    const created = await ctx.core.createApiToken.execute({ actor, name: 'ci' });
    ctx.clock.advance(365 * 24 * 3600 * 1000);
    await expect(ctx.core.authenticate.execute({ token: created.token })).resolves.toMatchObject({ via: 'uploader' });
  });

  it('requires a non-empty name and bounds it to 100 characters', async () => {
    const ctx = makeCore();
    const { actor } = await signUp(ctx, 'alice');
    const err = await failure(ctx.core.createApiToken.execute({ actor, name: ' \u200b ' }));
    expect(err).toMatchObject({ code: 'bad_request', details: { field: 'name' } });
    const long = await ctx.core.createApiToken.execute({ actor, name: 'x'.repeat(150) });
    expect(long.name).toBe('x'.repeat(100));
    expect((await ctx.core.getUsage.execute({ actor })).tokens.current).toBe(1);
  });

  it('stops at the tokens limit with limit_reached naming it, after exactly max tokens', async () => {
    const ctx = makeCore({ limits: { tokens: 3 } });
    const { actor } = await signUp(ctx, 'alice');
    for (let i = 0; i < 3; i++) await ctx.core.createApiToken.execute({ actor, name: `t${i}` });
    const err = await failure(ctx.core.createApiToken.execute({ actor, name: 'one too many' }));
    expect(err.code).toBe('limit_reached');
    expect(err.details).toEqual({ limit: 'tokens', max: 3, current: 3 });
    expect((await ctx.core.listApiTokens.execute({ actor })).items).toHaveLength(3);
    expect((await ctx.core.getUsage.execute({ actor })).tokens).toEqual({ current: 3, max: 3 });
  });

  it('lets exactly as many concurrent creates succeed as there is room for', async () => {
    const ctx = makeCore({ limits: { tokens: 5 } });
    const { actor } = await signUp(ctx, 'alice');
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => ctx.core.createApiToken.execute({ actor, name: `t${i}` })),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(ok).toHaveLength(5);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'limit_reached' });
    expect((await ctx.core.getUsage.execute({ actor })).tokens.current).toBe(5);
    expect((await ctx.core.listApiTokens.execute({ actor })).items).toHaveLength(5);
  });

  it('is forbidden with an API token', async () => {
    const ctx = makeCore();
    const { actor } = await signUp(ctx, 'alice');
    const uploader = await ctx.core.authenticate.execute({
      token: (await ctx.core.createApiToken.execute({ actor, name: 'ci' })).token,
    });
    expect((await failure(ctx.core.createApiToken.execute({ actor: uploader, name: 'x' }))).code).toBe('forbidden');
    expect((await ctx.core.getUsage.execute({ actor })).tokens.current).toBe(1);
  });
});

describe('listApiTokens', () => {
  it("lists the caller's API tokens in creation order, without secrets or sessions", async () => {
    const ctx = makeCore();
    const alice = await signUp(ctx, 'alice');
    const bob = await signUp(ctx, 'bob');
    const first = await ctx.core.createApiToken.execute({ actor: alice.actor, name: 'first' });
    ctx.clock.advance(1000);
    const second = await ctx.core.createApiToken.execute({ actor: alice.actor, name: 'second' });
    await ctx.core.createApiToken.execute({ actor: bob.actor, name: 'bobs' });
    const list = (await ctx.core.listApiTokens.execute({ actor: alice.actor })).items;
    expect(list).toEqual([
      { id: first.id, name: 'first', scope: 'uploader', createdAt: first.createdAt },
      { id: second.id, name: 'second', scope: 'uploader', createdAt: second.createdAt },
    ]);
    expect(JSON.stringify(list)).not.toContain(first.token);
  });

  it('is forbidden with an API token', async () => {
    const ctx = makeCore();
    const { actor } = await signUp(ctx, 'alice');
    const uploader = await ctx.core.authenticate.execute({
      token: (await ctx.core.createApiToken.execute({ actor, name: 'ci' })).token,
    });
    expect((await failure(ctx.core.listApiTokens.execute({ actor: uploader }))).code).toBe('forbidden');
  });
});

describe('deleteApiToken', () => {
  it('revokes the token and gives its unit back, so a new one fits', async () => {
    const ctx = makeCore({ limits: { tokens: 1 } });
    const { actor } = await signUp(ctx, 'alice');
    const created = await ctx.core.createApiToken.execute({ actor, name: 'ci' });
    await ctx.core.deleteApiToken.execute({ actor, id: created.id });
    expect((await failure(ctx.core.authenticate.execute({ token: created.token }))).code).toBe('unauthorized');
    expect((await ctx.core.getUsage.execute({ actor })).tokens.current).toBe(0);
    await expect(ctx.core.createApiToken.execute({ actor, name: 'again' })).resolves.toBeTruthy();
  });

  it('is not_found for an unknown id and for a second delete, releasing nothing more', async () => {
    const ctx = makeCore();
    const { actor } = await signUp(ctx, 'alice');
    const keep = await ctx.core.createApiToken.execute({ actor, name: 'keep' });
    const gone = await ctx.core.createApiToken.execute({ actor, name: 'gone' });
    await ctx.core.deleteApiToken.execute({ actor, id: gone.id });
    expect((await failure(ctx.core.deleteApiToken.execute({ actor, id: gone.id }))).code).toBe('not_found');
    expect((await failure(ctx.core.deleteApiToken.execute({ actor, id: 'nope' }))).code).toBe('not_found');
    expect((await ctx.core.getUsage.execute({ actor })).tokens.current).toBe(1);
    await expect(ctx.core.authenticate.execute({ token: keep.token })).resolves.toBeTruthy();
  });

  it('releases once when the same token is deleted concurrently', async () => {
    const ctx = makeCore();
    const { actor } = await signUp(ctx, 'alice');
    await ctx.core.createApiToken.execute({ actor, name: 'a' });
    const target = await ctx.core.createApiToken.execute({ actor, name: 'b' });
    await Promise.allSettled([
      ctx.core.deleteApiToken.execute({ actor, id: target.id }),
      ctx.core.deleteApiToken.execute({ actor, id: target.id }),
    ]);
    expect((await ctx.core.getUsage.execute({ actor })).tokens.current).toBe(1);
  });

  it("is not_found for someone else's token, which keeps working", async () => {
    const ctx = makeCore();
    const alice = await signUp(ctx, 'alice');
    const bob = await signUp(ctx, 'bob');
    const bobs = await ctx.core.createApiToken.execute({ actor: bob.actor, name: 'bobs' });
    expect((await failure(ctx.core.deleteApiToken.execute({ actor: alice.actor, id: bobs.id }))).code).toBe('not_found');
    await expect(ctx.core.authenticate.execute({ token: bobs.token })).resolves.toBeTruthy();
    expect((await ctx.core.getUsage.execute({ actor: bob.actor })).tokens.current).toBe(1);
  });

  it('is not_found for a session id, which stays valid', async () => {
    const ctx = makeCore();
    const { actor, token } = await signUp(ctx, 'alice');
    expect((await failure(ctx.core.deleteApiToken.execute({ actor, id: actor.tokenId }))).code).toBe('not_found');
    await expect(ctx.core.authenticate.execute({ token })).resolves.toBeTruthy();
  });

  it('is forbidden with an API token, even for itself', async () => {
    const ctx = makeCore();
    const { actor } = await signUp(ctx, 'alice');
    const created = await ctx.core.createApiToken.execute({ actor, name: 'ci' });
    const uploader = await ctx.core.authenticate.execute({ token: created.token });
    const err = await failure(ctx.core.deleteApiToken.execute({ actor: uploader, id: created.id }));
    expect(err.code).toBe('forbidden');
    await expect(ctx.core.authenticate.execute({ token: created.token })).resolves.toBeTruthy();
  });
});
