import { describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/index.js';
import { failure, makeCore, sessionOf, signUp } from '../support/core.js';
import { tally } from '../application/fixtures.js';

const ROUNDS = 10;
const ADMINS = 3;

type Ctx = ReturnType<typeof makeCore>;

/** ADMINS fresh admins, logged in; names carry the round so every round starts from new accounts. */
async function admins(ctx: Ctx, round: number): Promise<Array<{ actor: Actor; userId: string }>> {
  return Promise.all(Array.from({ length: ADMINS }, (_, i) => signUp(ctx, `admin-${round}-${i}`, 'admin')));
}

/** Only the one guard may refuse: anything but conflict would mean the race failed for another reason. */
function onlyConflicts(codes: string[]) {
  expect(codes.every((code) => code === 'conflict')).toBe(true);
}

describe('the last admin under concurrency (memory)', () => {
  it(`survives ${ADMINS} admins demoting themselves at once, ${ROUNDS} rounds`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const ctx = makeCore();
      const team = await admins(ctx, round);
      const { ok, codes } = await tally(
        team.map(({ actor, userId }) => ctx.core.updateUser.execute({ actor, id: userId, type: 'user' })),
      );
      expect(await ctx.ports.users.countAdmins(), `round ${round}`).toBe(1);
      expect(ok).toHaveLength(ADMINS - 1);
      onlyConflicts(codes);
    }
  });

  it(`survives ${ADMINS} admins deleting one another at once, ${ROUNDS} rounds`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const ctx = makeCore();
      const team = await admins(ctx, round);
      // Each deletes the next one (nobody may delete themselves), so every admin is some request's target.
      const { ok, codes } = await tally(
        team.map(({ actor }, i) => ctx.core.deleteUser.execute({ actor, id: team[(i + 1) % ADMINS]!.userId })),
      );
      expect(await ctx.ports.users.countAdmins(), `round ${round}`).toBe(1);
      expect(ok).toHaveLength(ADMINS - 1);
      onlyConflicts(codes);
      // The survivor is whole: still there, still an admin, still able to log in.
      const [survivor] = (await ctx.ports.users.list()).filter((u) => u.type === 'admin');
      const login = sessionOf(await ctx.core.login.execute({ username: survivor!.username, password: `${survivor!.username}-password` }));
      await expect(ctx.core.authenticate.execute({ token: login.token })).resolves.toMatchObject({ userType: 'admin' });
    }
  });

  it('survives a demotion and deletions mixed, racing one another', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const ctx = makeCore();
      const [a, b, c] = (await admins(ctx, round)) as [{ actor: Actor; userId: string }, ...{ actor: Actor; userId: string }[]];
      const { codes } = await tally<unknown>([
        ctx.core.updateUser.execute({ actor: a.actor, id: a.userId, type: 'user' }),
        ctx.core.deleteUser.execute({ actor: b!.actor, id: c!.userId }),
        ctx.core.deleteUser.execute({ actor: c!.actor, id: b!.userId }),
      ]);
      expect(await ctx.ports.users.countAdmins(), `round ${round}`).toBe(1);
      expect(codes).toEqual(['conflict']);
    }
  });

  it('refuses to delete the last admin before touching any of their data', async () => {
    const ctx = makeCore();
    const root = await signUp(ctx, 'root', 'admin');
    const other = await signUp(ctx, 'other', 'admin');
    await ctx.core.createPaste.execute({ actor: other.actor, content: 'kept' });
    // root's delete was authenticated while root was an admin; root's own demotion lands before it runs.
    await ctx.core.updateUser.execute({ actor: root.actor, id: root.userId, type: 'user' });
    const err = await failure(ctx.core.deleteUser.execute({ actor: root.actor, id: other.userId }));
    expect(err.code).toBe('conflict');
    expect(await ctx.ports.users.countAdmins()).toBe(1);
    const otherNow = await ctx.core.authenticate.execute({ token: other.token });
    expect(otherNow.userType).toBe('admin');
    expect((await ctx.core.listPastes.execute({ actor: otherNow })).items.map((p) => p.content)).toEqual(['kept']);
  });
});
