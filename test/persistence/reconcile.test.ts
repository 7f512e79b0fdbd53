import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/boot/config.js';
import { formatReport, NothingToReconcile, runReconcile } from '../../src/boot/reconcile.js';
import { asUploader } from '../application/fixtures.js';
import { makeCore, signUp } from '../support/core.js';
import { populate } from './populate.js';

describe('reconcileUsage', () => {
  it('finds no drift when every counter changed through the use cases', async () => {
    const ctx = makeCore();
    const admin = await signUp(ctx, 'root', 'admin');
    const alice = await signUp(ctx, 'alice');
    expect(await populate(ctx.core, alice.actor)).toEqual(await ctx.ports.usage.get(alice.userId));
    const report = await ctx.core.reconcileUsage.execute({ actor: admin.actor, fix: false });
    expect(report).toEqual({ checked: 2, fixed: false, drifted: [], admins: { stored: 1, actual: 1 } });
  });

  it('reports drift injected into the counters, per user and kind, and repairs it only with fix', async () => {
    const ctx = makeCore();
    const alice = await signUp(ctx, 'alice');
    const bob = await signUp(ctx, 'bob');
    const expected = await populate(ctx.core, alice.actor);
    // A crash between a release and a delete, and a hand edit: the counters no longer match the data.
    const stored = { ...expected, storage: 999, folders: 0, tokens: 4 };
    await ctx.ports.usage.set(alice.userId, stored);
    await ctx.ports.usage.reserve(bob.userId, 'shares', 3, 100);

    const report = await ctx.core.reconcileUsage.execute({ actor: null, fix: false });
    expect(report.checked).toBe(2);
    expect(report.fixed).toBe(false);
    // Both users were created at the same instant, so their order is the order of their random ids.
    expect(report.drifted).toHaveLength(2);
    expect(report.drifted).toEqual(
      expect.arrayContaining([
        { userId: alice.userId, username: 'alice', stored, actual: expected, drift: { storage: -984, folders: 2, tokens: -3 } },
        expect.objectContaining({ userId: bob.userId, drift: { shares: -3 } }),
      ]),
    );
    expect(await ctx.ports.usage.get(alice.userId)).toEqual(stored);

    const fixed = await ctx.core.reconcileUsage.execute({ actor: null, fix: true });
    expect(fixed.fixed).toBe(true);
    expect(fixed.drifted).toHaveLength(2);
    expect(await ctx.ports.usage.get(alice.userId)).toEqual(expected);
    expect((await ctx.ports.usage.get(bob.userId)).shares).toBe(0);
    expect((await ctx.core.reconcileUsage.execute({ actor: null, fix: false })).drifted).toEqual([]);
  });

  it('counts what is stored even when the data was removed behind the counters', async () => {
    const ctx = makeCore();
    const alice = await signUp(ctx, 'alice');
    await populate(ctx.core, alice.actor);
    const [paste] = await ctx.ports.pastes.listByOwner(alice.userId);
    await ctx.ports.pastes.delete(paste!.id);
    const { drifted } = await ctx.core.reconcileUsage.execute({ actor: null, fix: true });
    expect(drifted[0]?.drift).toEqual({ pastes: -1, storage: -5 });
    expect(await ctx.core.getUsage.execute({ actor: alice.actor })).toMatchObject({
      storage: { current: '10' },
      pastes: { current: 0 },
    });
  });

  it('is for admins with a session (or the operator, actor null) only', async () => {
    const ctx = makeCore();
    const admin = await signUp(ctx, 'root', 'admin');
    const alice = await signUp(ctx, 'alice');
    await expect(ctx.core.reconcileUsage.execute({ actor: alice.actor, fix: true })).rejects.toMatchObject({
      code: 'forbidden',
    });
    await expect(
      ctx.core.reconcileUsage.execute({ actor: asUploader(admin.actor), fix: true }),
    ).rejects.toMatchObject({ code: 'forbidden' });
  });
});

describe('the reconcile command', () => {
  it('formats one line per drifted user and a summary', () => {
    const zero = { storage: 0, files: 0, folders: 0, pastes: 0, collections: 0, shares: 0, tokens: 0, requests: 0 };
    const lines = formatReport({
      checked: 3,
      fixed: false,
      admins: { stored: 1, actual: 1 },
      drifted: [{ userId: 'u1', username: 'alice', stored: zero, actual: { ...zero, files: 2 }, drift: { files: 2 } }],
    });
    expect(lines).toEqual(['alice (u1): files 0 → 2', 'checked 3 users: drift found (run with --fix to repair) for 1']);
    expect(formatReport({ checked: 1, fixed: true, drifted: [], admins: { stored: 1, actual: 1 } })).toEqual(['checked 1 user: no drift']);
    expect(formatReport({ checked: 2, fixed: true, drifted: [], admins: { stored: 0, actual: 2 } })).toEqual([
      'admin count: 0 → 2 (repaired)',
      'checked 2 users: no drift',
    ]);
  });

  it('refuses to reconcile an in-memory store, which has nothing stored', async () => {
    const config = loadConfig({ PERSISTENCE: 'memory', LOG_LEVEL: 'silent' });
    await expect(runReconcile(config, { fix: true, write: () => undefined })).rejects.toBeInstanceOf(NothingToReconcile);
  });
});
