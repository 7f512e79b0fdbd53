import { describe, expect, it } from 'vitest';
import { makeCore, signUp, TEST_LIMITS } from '../support/core.js';

describe('getUsage', () => {
  it('reports zero counters against the configured defaults, storage as decimal strings', async () => {
    const ctx = makeCore({ limits: { storage: 2048, tokens: 7 } });
    const { actor } = await signUp(ctx, 'alice');
    expect(await ctx.core.getUsage.execute({ actor })).toEqual({
      storage: { current: '0', max: '2048' },
      files: { current: 0, max: TEST_LIMITS.files },
      folders: { current: 0, max: TEST_LIMITS.folders },
      pastes: { current: 0, max: TEST_LIMITS.pastes },
      collections: { current: 0, max: TEST_LIMITS.collections },
      shares: { current: 0, max: TEST_LIMITS.shares },
      tokens: { current: 0, max: 7 },
      requests: { current: 0, max: TEST_LIMITS.requests },
    });
  });

  it("counts what the user creates, not other users' things", async () => {
    const ctx = makeCore();
    const alice = await signUp(ctx, 'alice');
    const bob = await signUp(ctx, 'bob');
    await ctx.core.createFolder.execute({ actor: alice.actor, name: 'docs', parentId: null });
    await ctx.core.createApiToken.execute({ actor: alice.actor, name: 'ci' });
    await ctx.core.createFolder.execute({ actor: bob.actor, name: 'other', parentId: null });
    const usage = await ctx.core.getUsage.execute({ actor: alice.actor });
    expect(usage.folders.current).toBe(1);
    expect(usage.tokens.current).toBe(1);
  });

  it("applies the user's own overrides over the defaults", async () => {
    const ctx = makeCore();
    const { actor, userId } = await signUp(ctx, 'alice');
    await ctx.ports.users.update(userId, { limits: { storage: 5, files: 0 }, updatedAt: ctx.clock.now() });
    const usage = await ctx.core.getUsage.execute({ actor });
    expect(usage.storage.max).toBe('5');
    expect(usage.files.max).toBe(0);
    expect(usage.folders.max).toBe(TEST_LIMITS.folders);
  });

  it('is readable with an API token', async () => {
    const ctx = makeCore();
    const { actor } = await signUp(ctx, 'alice');
    const created = await ctx.core.createApiToken.execute({ actor, name: 'ci' });
    const uploader = await ctx.core.authenticate.execute({ token: created.token });
    expect((await ctx.core.getUsage.execute({ actor: uploader })).tokens.current).toBe(1);
  });

  it('is unauthorized once the user is gone', async () => {
    const ctx = makeCore();
    const { actor, userId } = await signUp(ctx, 'alice');
    await ctx.ports.users.delete(userId);
    await expect(ctx.core.getUsage.execute({ actor })).rejects.toMatchObject({ code: 'unauthorized' });
  });
});
