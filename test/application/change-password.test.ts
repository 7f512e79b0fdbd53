import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { PasswordHasher, Ports } from '../../src/application/index.js';
import { GUESSES_PER_TARGET_AND_ADDRESS } from '../../src/application/auth/throttle-rules.js';
import { failure, makeCore, sessionOf, signUp } from '../support/core.js';

const NEW_PASSWORD = 'a-brand-new-password';
const CLIENT = '192.0.2.7';

async function aliceWithThreeSessions(options: Parameters<typeof makeCore>[0] = {}) {
  const ctx = makeCore(options);
  const alice = await signUp(ctx, 'alice');
  const other = sessionOf(await ctx.core.login.execute({ username: 'alice', password: 'alice-password' }));
  const third = sessionOf(await ctx.core.login.execute({ username: 'alice', password: 'alice-password' }));
  const api = await ctx.core.createApiToken.execute({ actor: alice.actor, name: 'ci' });
  const works = (token: string) =>
    ctx.core.authenticate.execute({ token }).then(
      () => 'works',
      (err: { code?: string }) => err.code,
    );
  const logsIn = (password: string) =>
    ctx.core.login.execute({ username: 'alice', password }).then(
      () => 'works',
      (err: { code?: string }) => err.code,
    );
  const change = (currentPassword: string, newPassword = NEW_PASSWORD) =>
    ctx.core.changePassword.execute({ actor: alice.actor, currentPassword, newPassword, client: CLIENT });
  return { ctx, alice, others: [other.token, third.token], api: api.token, works, logsIn, change };
}

describe('changing your own password', () => {
  it('ends every other session, keeps the one used and the API tokens, and swaps the passwords', async () => {
    const { ctx, alice, others, api, works, logsIn, change } = await aliceWithThreeSessions();
    await change('alice-password');
    expect(await works(alice.token)).toBe('works');
    for (const token of others) expect(await works(token)).toBe('unauthorized');
    expect(await works(api)).toBe('works');
    // The other sessions are gone from the store, not only refused.
    expect((await ctx.ports.tokens.listByUser(alice.userId, 'session')).map((s) => s.id)).toEqual([alice.actor.tokenId]);
    expect(await logsIn('alice-password')).toBe('unauthorized');
    expect(await logsIn(NEW_PASSWORD)).toBe('works');
    // The session kept can change the password again, and stays again.
    await change(NEW_PASSWORD, 'third-password-ok');
    expect(await works(alice.token)).toBe('works');
    expect(await logsIn('third-password-ok')).toBe('works');
  });

  it('refuses a wrong current password as forbidden and changes nothing', async () => {
    const { ctx, alice, others, works, logsIn, change } = await aliceWithThreeSessions();
    const before = await ctx.ports.users.findById(alice.userId);
    const err = await failure(change('not-the-password'));
    expect(err.code).toBe('forbidden');
    expect(await ctx.ports.users.findById(alice.userId)).toEqual(before);
    for (const token of [alice.token, ...others]) expect(await works(token)).toBe('works');
    expect(await logsIn(NEW_PASSWORD)).toBe('unauthorized');
    expect(await logsIn('alice-password')).toBe('works');
  });

  it('is forbidden with an API token, whatever the password', async () => {
    const { ctx, api, works, logsIn } = await aliceWithThreeSessions();
    const actor = await ctx.core.authenticate.execute({ token: api });
    const err = await failure(
      ctx.core.changePassword.execute({ actor, currentPassword: 'alice-password', newPassword: NEW_PASSWORD }),
    );
    expect(err.code).toBe('forbidden');
    expect(await works(api)).toBe('works');
    expect(await logsIn('alice-password')).toBe('works');
  });

  it('refuses a new password outside 8 to 256 characters, and an empty current one, as bad_request', async () => {
    const { change, logsIn } = await aliceWithThreeSessions();
    for (const bad of ['short7!', 'x'.repeat(257), '']) {
      const err = await failure(change('alice-password', bad));
      expect(err.code).toBe('bad_request');
      expect(err.details).toEqual({ field: 'newPassword' });
    }
    const empty = await failure(change(''));
    expect(empty.details).toEqual({ field: 'currentPassword' });
    expect(await logsIn('alice-password')).toBe('works');
    await change('alice-password', '😀'.repeat(256));
    expect(await logsIn('😀'.repeat(256))).toBe('works');
  });

  it('counts wrong current passwords as failed logins at the account: locked out, even the right one, others not', async () => {
    const { ctx, change, logsIn } = await aliceWithThreeSessions();
    const bob = await signUp(ctx, 'bob');
    for (let i = 0; i < GUESSES_PER_TARGET_AND_ADDRESS; i++) {
      expect((await failure(change(`wrong-password-${i}`))).code, `guess ${i + 1}`).toBe('forbidden');
    }
    const locked = await failure(change('alice-password'));
    expect(locked.code).toBe('rate_limited');
    expect(locked.details['retryAfter']).toBeGreaterThan(0);
    // The same keys as a login's: alice's login from that address is locked too.
    const login = await failure(ctx.core.login.execute({ username: 'alice', password: 'alice-password', client: CLIENT }));
    expect(login.code).toBe('rate_limited');
    // Nobody else is held back: bob changes his own password from the very same address.
    await ctx.core.changePassword.execute({
      actor: bob.actor,
      currentPassword: 'bob-password',
      newPassword: NEW_PASSWORD,
      client: CLIENT,
    });
    expect(await logsIn('alice-password')).toBe('works');
  });

  it('forgives earlier failures once the right current password comes, as a login does', async () => {
    const { change, logsIn } = await aliceWithThreeSessions();
    for (let i = 0; i < GUESSES_PER_TARGET_AND_ADDRESS - 1; i++) await failure(change('wrong-password'));
    await change('alice-password');
    await failure(change('wrong-password'));
    await change(NEW_PASSWORD, 'then-another-one');
    expect(await logsIn('then-another-one')).toBe('works');
  });

  it('ends the kept session at the next admin reset, like any other', async () => {
    const { ctx, alice, works, change } = await aliceWithThreeSessions();
    const root = await signUp(ctx, 'root', 'admin');
    await change('alice-password');
    await ctx.core.updateUser.execute({ actor: root.actor, id: alice.userId, password: 'reset-by-admin' });
    expect(await works(alice.token)).toBe('unauthorized');
  });
});

/** A hasher whose `hash` waits for `gate` first: the moment between the proof and the write, held open. */
function gatedHash(hasher: PasswordHasher, gate: { wait: Promise<void> | null; reached: () => void }): PasswordHasher {
  return {
    verify: (hash, password) => hasher.verify(hash, password),
    hash: async (password) => {
      const wait = gate.wait;
      if (wait) {
        gate.reached();
        await wait;
      }
      return hasher.hash(password);
    },
  };
}

describe('changing your own password under concurrency', () => {
  it('keeps the session used valid throughout: a request on it while the change is written is never refused', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const atRestamp = new Promise<void>((resolve) => (reached = resolve));
    let first = true;
    const wrap = (ports: Ports): Ports => ({
      ...ports,
      tokens: Object.assign(Object.create(ports.tokens) as Ports['tokens'], {
        // The change's own re-stamp waits; any other goes through.
        moveEpoch: async (id: string, from: number, to: number) => {
          if (first) {
            first = false;
            reached();
            await held;
          }
          return ports.tokens.moveEpoch(id, from, to);
        },
      }),
    });
    const { alice, others, works, change } = await aliceWithThreeSessions({ wrapPorts: wrap });
    const changing = change('alice-password');
    await atRestamp;
    // The new password is stored and the epoch moved; the session has not been re-stamped yet.
    expect(await works(alice.token)).toBe('works');
    expect(await works(others[0]!)).toBe('unauthorized');
    release();
    await changing;
    expect(await works(alice.token)).toBe('works');
  });

  it('finishes the re-stamp at the next use when the change died before it, so the session survives its next change', async () => {
    let dropped = 0;
    const wrap = (ports: Ports): Ports => ({
      ...ports,
      tokens: Object.assign(Object.create(ports.tokens) as Ports['tokens'], {
        // The first re-stamp is lost, as when the process dies right after the password write.
        moveEpoch: async (id: string, from: number, to: number) =>
          dropped++ === 0 ? false : ports.tokens.moveEpoch(id, from, to),
      }),
    });
    const { ctx, alice, works, logsIn, change } = await aliceWithThreeSessions({ wrapPorts: wrap });
    await change('alice-password');
    expect((await ctx.ports.tokens.findById(alice.actor.tokenId))!.credentialsEpoch).toBe(0);
    expect(await works(alice.token)).toBe('works');
    expect((await ctx.ports.tokens.findById(alice.actor.tokenId))!.credentialsEpoch).toBe(1);
    await change(NEW_PASSWORD, 'third-password-ok');
    expect(await works(alice.token)).toBe('works');
    expect(await logsIn('third-password-ok')).toBe('works');
  });

  it('lets an admin reset that lands between the proof and the write win: 409, and the reset holds', async () => {
    let release!: () => void;
    let reached!: () => void;
    const atHash = new Promise<void>((resolve) => (reached = resolve));
    const gate: { wait: Promise<void> | null; reached: () => void } = { wait: null, reached };
    const ctx = makeCore({ wrapPorts: (ports) => ({ ...ports, hasher: gatedHash(ports.hasher, gate) }) });
    const root = await signUp(ctx, 'root', 'admin');
    const alice = await signUp(ctx, 'alice');
    gate.wait = new Promise<void>((resolve) => (release = resolve));
    const changing = failure(
      ctx.core.changePassword.execute({ actor: alice.actor, currentPassword: 'alice-password', newPassword: NEW_PASSWORD }),
    );
    await atHash;
    gate.wait = null;
    await ctx.core.updateUser.execute({ actor: root.actor, id: alice.userId, password: 'reset-by-admin' });
    release();
    expect((await changing).code).toBe('conflict');
    await expect(ctx.core.login.execute({ username: 'alice', password: 'reset-by-admin' })).resolves.toBeDefined();
    expect((await failure(ctx.core.login.execute({ username: 'alice', password: NEW_PASSWORD }))).code).toBe(
      'unauthorized',
    );
    expect((await failure(ctx.core.authenticate.execute({ token: alice.token }))).code).toBe('unauthorized');
  });

  it('two changes at once from one session: one wins, the other is a conflict, and the session stays', async () => {
    const { alice, works, logsIn, ctx } = await aliceWithThreeSessions();
    const outcomes = await Promise.allSettled(
      ['first-new-password', 'second-new-password'].map((newPassword) =>
        ctx.core.changePassword.execute({ actor: alice.actor, currentPassword: 'alice-password', newPassword }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: 'conflict' });
    expect(await works(alice.token)).toBe('works');
    const wins = [await logsIn('first-new-password'), await logsIn('second-new-password')];
    expect(wins.filter((w) => w === 'works')).toHaveLength(1);
  });
});

const VERIFY_MS = 40;
const OFFSETS_MS = [0, 10, 20, 30, 35, 45, 60];

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

describe('a login racing your own password change', () => {
  it(`never yields a working session with the old password once the change has answered, at ${OFFSETS_MS.length} offsets`, async () => {
    let raced = 0;
    for (const offset of OFFSETS_MS) {
      const ctx = makeCore({ wrapPorts: (ports) => ({ ...ports, hasher: slowVerify(ports.hasher) }) });
      const alice = await signUp(ctx, 'alice');
      const login = ctx.core.login.execute({ username: 'alice', password: 'alice-password' });
      await sleep(offset);
      await ctx.core.changePassword.execute({
        actor: alice.actor,
        currentPassword: 'alice-password',
        newPassword: NEW_PASSWORD,
      });
      const outcome = await login.then(
        (result) => sessionOf(result).token,
        () => null,
      );
      if (outcome !== null) {
        raced++;
        const session = await ctx.core.authenticate.execute({ token: outcome }).then(
          () => 'works',
          (err: { code?: string }) => err.code,
        );
        expect(session, `offset ${offset} ms`).toBe('unauthorized');
      }
      await expect(ctx.core.authenticate.execute({ token: alice.token })).resolves.toMatchObject({ via: 'session' });
    }
    expect(raced).toBeGreaterThan(0);
  });
});
