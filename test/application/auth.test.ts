import { describe, expect, it, vi } from 'vitest';
import { failure, makeCore, sessionOf, signUp } from '../support/core.js';

const TTL = 60 * 60 * 1000;

describe('login', () => {
  it('returns a session token and the user, and the token authenticates as that user', async () => {
    const ctx = makeCore();
    const { userId } = await signUp(ctx, 'alice');
    const result = sessionOf(await ctx.core.login.execute({ username: 'alice', password: 'alice-password' }));
    expect(result.user).toEqual({ id: userId, username: 'alice' });
    const actor = await ctx.core.authenticate.execute({ token: result.token });
    expect(actor).toMatchObject({ userId, userType: 'user', via: 'session' });
  });

  it('matches the username without regard to case', async () => {
    const ctx = makeCore();
    const { userId } = await signUp(ctx, 'Alice');
    const result = sessionOf(await ctx.core.login.execute({ username: 'aLICE', password: 'Alice-password' }));
    expect(result.user).toEqual({ id: userId, username: 'Alice' });
  });

  it('stores only a hash of the session secret, expiring after the session lifetime', async () => {
    const ctx = makeCore({ sessionTtlMs: TTL });
    await signUp(ctx, 'alice');
    const { token } = sessionOf(await ctx.core.login.execute({ username: 'alice', password: 'alice-password' }));
    expect(await ctx.ports.tokens.findByHash(token)).toBeNull();
    const stored = await ctx.ports.tokens.findByHash(ctx.ports.secrets.hash(token));
    expect(stored).toMatchObject({ type: 'session', expiresAt: new Date(ctx.clock.now().getTime() + TTL) });
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('rejects an empty username or password as bad_request', async () => {
    const ctx = makeCore();
    await signUp(ctx, 'alice');
    const noUser = await failure(ctx.core.login.execute({ username: '', password: 'alice-password' }));
    expect(noUser.code).toBe('bad_request');
    expect(noUser.details).toEqual({ field: 'username' });
    const noPassword = await failure(ctx.core.login.execute({ username: 'alice', password: '' }));
    expect(noPassword.code).toBe('bad_request');
    expect(noPassword.details).toEqual({ field: 'password' });
  });

  it('fails identically for an unknown user and a wrong password', async () => {
    const ctx = makeCore();
    await signUp(ctx, 'alice');
    const wrong = await failure(ctx.core.login.execute({ username: 'alice', password: 'not-the-password' }));
    const unknown = await failure(ctx.core.login.execute({ username: 'nobody', password: 'alice-password' }));
    expect(wrong.code).toBe('unauthorized');
    expect({ code: unknown.code, message: unknown.message, details: unknown.details }).toEqual({
      code: wrong.code,
      message: wrong.message,
      details: wrong.details,
    });
    expect(wrong.message).toBe('Invalid username or password');
  });

  it('runs one password verification for an unknown user too, against a real hash', async () => {
    const ctx = makeCore();
    const verify = vi.spyOn(ctx.ports.hasher, 'verify');
    const hash = vi.spyOn(ctx.ports.hasher, 'hash');
    await failure(ctx.core.login.execute({ username: 'nobody', password: 'whatever-1' }));
    await failure(ctx.core.login.execute({ username: 'nobody2', password: 'whatever-2' }));
    expect(verify).toHaveBeenCalledTimes(2);
    expect(verify.mock.calls[0]![0]).toMatch(/^\$argon2id\$/);
    // The dummy hash is computed once and reused.
    expect(hash).toHaveBeenCalledTimes(1);
  });
});

describe('authenticate', () => {
  it('rejects an unknown or empty token', async () => {
    const ctx = makeCore();
    expect((await failure(ctx.core.authenticate.execute({ token: 'nope' }))).code).toBe('unauthorized');
    expect((await failure(ctx.core.authenticate.execute({ token: '' }))).code).toBe('unauthorized');
  });

  it('accepts a session until it has gone unused for the session lifetime, and not after', async () => {
    const ctx = makeCore({ sessionTtlMs: TTL });
    const { token } = await signUp(ctx, 'alice');
    ctx.clock.advance(TTL - 1);
    await expect(ctx.core.authenticate.execute({ token })).resolves.toMatchObject({ via: 'session' });
    ctx.clock.advance(TTL - 1);
    await expect(ctx.core.authenticate.execute({ token })).resolves.toMatchObject({ via: 'session' });
    ctx.clock.advance(TTL);
    expect((await failure(ctx.core.authenticate.execute({ token }))).code).toBe('unauthorized');
  });

  it('rejects the token of a user who no longer exists', async () => {
    const ctx = makeCore();
    const { token, userId } = await signUp(ctx, 'alice');
    await ctx.ports.users.delete(userId);
    expect((await failure(ctx.core.authenticate.execute({ token }))).code).toBe('unauthorized');
  });

  it('reads the user type from the user record, so a demoted admin loses admin routes at once', async () => {
    const ctx = makeCore();
    const root = await signUp(ctx, 'root', 'admin');
    const other = await signUp(ctx, 'other', 'admin');
    await expect(ctx.core.listUsers.execute({ actor: other.actor })).resolves.toHaveLength(2);
    await ctx.core.updateUser.execute({ actor: root.actor, id: other.userId, type: 'user' });
    const actor = await ctx.core.authenticate.execute({ token: other.token });
    expect(actor.userType).toBe('user');
    expect((await failure(ctx.core.listUsers.execute({ actor }))).code).toBe('forbidden');
  });
});

describe('logout', () => {
  it('revokes the presented session and only that one', async () => {
    const ctx = makeCore();
    const { actor, token } = await signUp(ctx, 'alice');
    const second = sessionOf(await ctx.core.login.execute({ username: 'alice', password: 'alice-password' }));
    await ctx.core.logout.execute({ actor });
    expect((await failure(ctx.core.authenticate.execute({ token }))).code).toBe('unauthorized');
    await expect(ctx.core.authenticate.execute({ token: second.token })).resolves.toMatchObject({ via: 'session' });
  });

  it('everywhere revokes every session of the user, not another user\'s, and keeps API tokens', async () => {
    const ctx = makeCore();
    const { actor, token } = await signUp(ctx, 'alice');
    const second = sessionOf(await ctx.core.login.execute({ username: 'alice', password: 'alice-password' }));
    const bob = await signUp(ctx, 'bob');
    const api = await ctx.core.createApiToken.execute({ actor, name: 'ci' });
    await ctx.core.logout.execute({ actor, everywhere: true });
    for (const ended of [token, second.token]) {
      expect((await failure(ctx.core.authenticate.execute({ token: ended }))).code).toBe('unauthorized');
    }
    await expect(ctx.core.authenticate.execute({ token: bob.token })).resolves.toMatchObject({ via: 'session' });
    await expect(ctx.core.authenticate.execute({ token: api.token })).resolves.toMatchObject({ via: 'uploader' });
  });

  it('is forbidden with an API token, which stays valid', async () => {
    const ctx = makeCore();
    const { actor } = await signUp(ctx, 'alice');
    const api = await ctx.core.createApiToken.execute({ actor, name: 'ci' });
    const uploader = await ctx.core.authenticate.execute({ token: api.token });
    expect((await failure(ctx.core.logout.execute({ actor: uploader }))).code).toBe('forbidden');
    await expect(ctx.core.authenticate.execute({ token: api.token })).resolves.toMatchObject({ via: 'uploader' });
  });
});

describe('getMe', () => {
  it('describes the caller', async () => {
    const ctx = makeCore();
    const { actor, userId } = await signUp(ctx, 'root', 'admin');
    expect(await ctx.core.getMe.execute({ actor })).toEqual({
      id: userId,
      username: 'root',
      type: 'admin',
      createdAt: '2026-11-22T10:00:00.000Z',
      mustChangePassword: false,
      mfa: { totp: false, passkeys: 0, recoveryCodesLeft: 0 },
      hasPassword: true,
      oidc: null,
    });
  });

  it('is forbidden with an API token', async () => {
    const ctx = makeCore();
    const { actor } = await signUp(ctx, 'alice');
    const api = await ctx.core.createApiToken.execute({ actor, name: 'ci' });
    const uploader = await ctx.core.authenticate.execute({ token: api.token });
    expect((await failure(ctx.core.getMe.execute({ actor: uploader }))).code).toBe('forbidden');
  });
});

describe('register', () => {
  it('is forbidden while registration is closed, and creates nobody', async () => {
    const ctx = makeCore({ registration: 'closed' });
    const err = await failure(ctx.core.register.execute({ username: 'alice', password: 'password-1' }));
    expect(err.code).toBe('forbidden');
    expect(err.message).toBe('Registration is closed');
    expect(await ctx.ports.users.findByUsername('alice')).toBeNull();
  });

  it('creates a plain user and logs them in when open', async () => {
    const ctx = makeCore({ registration: 'open' });
    const result = await ctx.core.register.execute({ username: 'alice', password: 'password-1' });
    expect(result.user.username).toBe('alice');
    const actor = await ctx.core.authenticate.execute({ token: result.token });
    expect(actor).toMatchObject({ userId: result.user.id, userType: 'user', via: 'session' });
    const user = await ctx.ports.users.findById(result.user.id);
    expect(user).toMatchObject({ type: 'user', limits: {} });
    expect(user!.passwordHash).not.toContain('password-1');
    await expect(ctx.core.login.execute({ username: 'alice', password: 'password-1' })).resolves.toBeTruthy();
  });

  it.each([
    ['username', 'a', 'password-1'],
    ['username', 'bad name', 'password-1'],
    ['username', '../etc', 'password-1'],
    ['password', 'alice', 'short'],
    ['password', 'alice', 'x'.repeat(257)],
  ])('rejects an invalid %s (%j / %j)', async (field, username, password) => {
    const ctx = makeCore({ registration: 'open' });
    const err = await failure(ctx.core.register.execute({ username, password }));
    expect(err.code).toBe('bad_request');
    expect(err.details).toEqual({ field });
    expect(await ctx.ports.users.list()).toHaveLength(0);
  });

  it('refuses a taken username, whatever its case', async () => {
    const ctx = makeCore({ registration: 'open' });
    await ctx.core.register.execute({ username: 'alice', password: 'password-1' });
    const err = await failure(ctx.core.register.execute({ username: 'ALICE', password: 'password-2' }));
    expect(err.code).toBe('conflict');
    expect(await ctx.ports.users.list()).toHaveLength(1);
  });
});

describe('ensureAdmin', () => {
  it('creates the configured admin when missing', async () => {
    const ctx = makeCore();
    const result = await ctx.core.ensureAdmin.execute({ username: 'boss', password: 'boss-password' });
    expect(result).toEqual({ created: true, username: 'boss', generatedPassword: null });
    const { token } = sessionOf(await ctx.core.login.execute({ username: 'boss', password: 'boss-password' }));
    await expect(ctx.core.authenticate.execute({ token })).resolves.toMatchObject({ userType: 'admin' });
  });

  it('promotes an existing user and makes the configured password the valid one, ending old sessions', async () => {
    const ctx = makeCore();
    const { userId, token } = await signUp(ctx, 'boss');
    const result = await ctx.core.ensureAdmin.execute({ username: 'BOSS', password: 'configured-password' });
    expect(result).toEqual({ created: false, username: 'boss', generatedPassword: null });
    expect(await ctx.ports.users.findById(userId)).toMatchObject({ type: 'admin' });
    expect((await failure(ctx.core.authenticate.execute({ token }))).code).toBe('unauthorized');
    expect((await failure(ctx.core.login.execute({ username: 'boss', password: 'boss-password' }))).code).toBe(
      'unauthorized',
    );
    await expect(ctx.core.login.execute({ username: 'boss', password: 'configured-password' })).resolves.toBeTruthy();
  });

  it('leaves an admin whose password already matches untouched, sessions included', async () => {
    const ctx = makeCore();
    const { token } = await signUp(ctx, 'boss', 'admin');
    const result = await ctx.core.ensureAdmin.execute({ username: 'boss', password: 'boss-password' });
    expect(result).toEqual({ created: false, username: 'boss', generatedPassword: null });
    await expect(ctx.core.authenticate.execute({ token })).resolves.toMatchObject({ userType: 'admin' });
  });

  it('rejects invalid configured credentials and half a configuration', async () => {
    const ctx = makeCore();
    const short = await failure(ctx.core.ensureAdmin.execute({ username: 'boss', password: 'short' }));
    expect(short).toMatchObject({ code: 'bad_request', details: { field: 'password' } });
    const half = await failure(ctx.core.ensureAdmin.execute({ username: 'boss', password: null }));
    expect(half).toMatchObject({ code: 'bad_request', details: { field: 'password' } });
    expect(await ctx.ports.users.list()).toHaveLength(0);
  });

  it('creates "admin" with a random one-time password when no admin exists, and nothing the second time', async () => {
    const ctx = makeCore();
    const first = await ctx.core.ensureAdmin.execute({ username: null, password: null });
    expect(first.created).toBe(true);
    expect(first.username).toBe('admin');
    expect(first.generatedPassword).toMatch(/^.{24}$/);
    const { token } = sessionOf(await ctx.core.login.execute({ username: 'admin', password: first.generatedPassword! }));
    await expect(ctx.core.authenticate.execute({ token })).resolves.toMatchObject({ userType: 'admin' });

    const second = await ctx.core.ensureAdmin.execute({ username: null, password: null });
    expect(second).toEqual({ created: false, username: 'admin', generatedPassword: null });
    expect(await ctx.ports.users.countAdmins()).toBe(1);
  });

  it('never generates the same password twice', async () => {
    const a = await makeCore().core.ensureAdmin.execute({ username: null, password: null });
    const b = await makeCore().core.ensureAdmin.execute({ username: null, password: null });
    expect(a.generatedPassword).not.toBe(b.generatedPassword);
  });

  it('picks another name when "admin" belongs to a plain user, and leaves that user alone', async () => {
    const ctx = makeCore();
    const plain = await signUp(ctx, 'admin');
    const result = await ctx.core.ensureAdmin.execute({ username: null, password: null });
    expect(result.created).toBe(true);
    expect(result.username).toMatch(/^admin-[a-z0-9_-]{4}$/);
    expect(await ctx.ports.users.findById(plain.userId)).toMatchObject({ type: 'user' });
    await expect(
      ctx.core.login.execute({ username: result.username, password: result.generatedPassword! }),
    ).resolves.toBeTruthy();
  });

  it('creates nothing when an admin already exists', async () => {
    const ctx = makeCore();
    await signUp(ctx, 'root', 'admin');
    const result = await ctx.core.ensureAdmin.execute({ username: null, password: null });
    expect(result).toEqual({ created: false, username: 'root', generatedPassword: null });
    expect(await ctx.ports.users.list()).toHaveLength(1);
  });
});
