import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { PasswordHasher } from '../../src/application/index.js';
import { makeCore, sessionOf, signUp } from '../support/core.js';

/** How long a login's password check takes beyond argon2 itself: the window a reset can land in. */
const VERIFY_MS = 40;
const OFFSETS_MS = [0, 5, 10, 15, 20, 25, 30, 35, 45, 60];

function slowVerify(hasher: PasswordHasher): PasswordHasher {
  return {
    hash: (password) => hasher.hash(password),
    verify: async (hash, password) => {
      const right = await hasher.verify(hash, password);
      await sleep(VERIFY_MS);
      return right;
    },
  };
}

async function race(offsetMs: number) {
  const ctx = makeCore({ wrapPorts: (ports) => ({ ...ports, hasher: slowVerify(ports.hasher) }) });
  const root = await signUp(ctx, 'root', 'admin');
  const bob = await signUp(ctx, 'bob');
  const login = ctx.core.login.execute({ username: 'bob', password: 'bob-password' });
  await sleep(offsetMs);
  await ctx.core.updateUser.execute({ actor: root.actor, id: bob.userId, password: 'a-brand-new-password' });
  // The reset has answered. Whatever the login got, and whenever it gets it, must not be a working session.
  const outcome = await login.then(
    (result) => ({ token: sessionOf(result).token }),
    (err: { code?: string }) => ({ refused: err.code }),
  );
  const session =
    'token' in outcome
      ? await ctx.core.authenticate.execute({ token: outcome.token }).then(
          () => 'works',
          (err: { code?: string }) => err.code,
        )
      : null;
  return { ctx, outcome, session };
}

describe('a login racing a password reset', () => {
  it(`never yields a working session once the reset has answered, at ${OFFSETS_MS.length} offsets`, async () => {
    let raced = 0;
    for (const offset of OFFSETS_MS) {
      const { ctx, outcome, session } = await race(offset);
      if ('token' in outcome) {
        raced++;
        expect(session, `offset ${offset} ms`).toBe('unauthorized');
      } else {
        expect(outcome.refused, `offset ${offset} ms`).toBe('unauthorized');
      }
      // The new password works, and its session does.
      const fresh = sessionOf(await ctx.core.login.execute({ username: 'bob', password: 'a-brand-new-password' }));
      await expect(ctx.core.authenticate.execute({ token: fresh.token })).resolves.toMatchObject({ via: 'session' });
    }
    // Logins that checked the old password before the reset and finished after it: the case under test happened.
    expect(raced).toBeGreaterThan(0);
  });

  it('ends the session of a login that finished before the reset began', async () => {
    const { outcome, session } = await race(VERIFY_MS * 3);
    expect('token' in outcome).toBe(true);
    expect(session).toBe('unauthorized');
  });
});
