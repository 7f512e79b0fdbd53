import { describe, expect, it } from 'vitest';
import { failure, makeCore, sessionOf, signUp } from '../support/core.js';

const CLIENT = '192.0.2.7';

/** A core with an admin signed in (a password the admin chose), and a helper that reads a user's Me view. */
async function withAdmin(options: Parameters<typeof makeCore>[0] = {}) {
  const ctx = makeCore(options);
  const admin = await signUp(ctx, 'root', 'admin');
  const meOf = async (username: string, password: string) => {
    const { token } = sessionOf(await ctx.core.login.execute({ username, password }));
    const actor = await ctx.core.authenticate.execute({ token });
    return { actor, me: await ctx.core.getMe.execute({ actor }) };
  };
  return { ctx, admin, meOf };
}

describe('mustChangePassword', () => {
  it('is set for the admin created with a generated password, and cleared by their own change', async () => {
    const ctx = makeCore();
    const { username, generatedPassword } = await ctx.core.ensureAdmin.execute({ username: null, password: null });
    const { token } = sessionOf(await ctx.core.login.execute({ username, password: generatedPassword! }));
    const actor = await ctx.core.authenticate.execute({ token });
    expect(await ctx.core.getMe.execute({ actor })).toMatchObject({ username: 'admin', mustChangePassword: true });

    // A wrong proof changes nothing, the request to change included.
    const wrong = ctx.core.changePassword.execute({
      actor,
      currentPassword: 'not-the-password',
      newPassword: 'chosen-by-the-admin',
      client: CLIENT,
    });
    expect((await failure(wrong)).code).toBe('forbidden');
    expect((await ctx.core.getMe.execute({ actor })).mustChangePassword).toBe(true);

    await ctx.core.changePassword.execute({
      actor,
      currentPassword: generatedPassword!,
      newPassword: 'chosen-by-the-admin',
      client: CLIENT,
    });
    expect((await ctx.core.getMe.execute({ actor })).mustChangePassword).toBe(false);
    expect((await ctx.ports.users.findByUsername('admin'))?.mustChangePassword).toBe(false);
  });

  it('is set for the admin picked under another name when "admin" is taken', async () => {
    const ctx = makeCore();
    await signUp(ctx, 'admin');
    const { username } = await ctx.core.ensureAdmin.execute({ username: null, password: null });
    expect(username).not.toBe('admin');
    expect((await ctx.ports.users.findByUsername(username))?.mustChangePassword).toBe(true);
    expect((await ctx.ports.users.findByUsername('admin'))?.mustChangePassword).toBe(false);
  });

  it('is not set for the ADMIN_USERNAME/ADMIN_PASSWORD admin, whom the operator chose the password for', async () => {
    const ctx = makeCore();
    await ctx.core.ensureAdmin.execute({ username: 'boss', password: 'boss-password' });
    expect((await ctx.ports.users.findByUsername('boss'))?.mustChangePassword).toBe(false);
  });

  it('is cleared when ADMIN_PASSWORD replaces a password the user was to change', async () => {
    const { ctx, admin } = await withAdmin();
    await ctx.core.createUser.execute({ actor: admin.actor, username: 'boss', password: 'set-by-root' });
    expect((await ctx.ports.users.findByUsername('boss'))?.mustChangePassword).toBe(true);
    await ctx.core.ensureAdmin.execute({ username: 'boss', password: 'configured-password' });
    expect((await ctx.ports.users.findByUsername('boss'))?.mustChangePassword).toBe(false);
  });

  it('is not set at registration', async () => {
    const ctx = makeCore({ registration: 'open' });
    const { token } = await ctx.core.register.execute({ username: 'eve', password: 'eve-password' });
    const actor = await ctx.core.authenticate.execute({ token });
    expect((await ctx.core.getMe.execute({ actor })).mustChangePassword).toBe(false);
  });

  it('is set for a user an admin creates, whatever their type', async () => {
    const { ctx, admin, meOf } = await withAdmin();
    await ctx.core.createUser.execute({ actor: admin.actor, username: 'alice', password: 'set-by-root' });
    await ctx.core.createUser.execute({ actor: admin.actor, username: 'deputy', password: 'set-by-root', type: 'admin' });
    expect((await meOf('alice', 'set-by-root')).me.mustChangePassword).toBe(true);
    expect((await meOf('deputy', 'set-by-root')).me.mustChangePassword).toBe(true);
  });

  it("is set again when an admin resets a user's password after the user chose one", async () => {
    const { ctx, admin, meOf } = await withAdmin();
    const { id } = await ctx.core.createUser.execute({ actor: admin.actor, username: 'alice', password: 'set-by-root' });
    const alice = await meOf('alice', 'set-by-root');
    await ctx.core.changePassword.execute({
      actor: alice.actor,
      currentPassword: 'set-by-root',
      newPassword: 'chosen-by-alice',
      client: CLIENT,
    });
    expect((await meOf('alice', 'chosen-by-alice')).me.mustChangePassword).toBe(false);

    // Changing only her limits or type asks nothing of her.
    await ctx.core.updateUser.execute({ actor: admin.actor, id, limits: { files: 5 }, type: 'user' });
    expect((await ctx.ports.users.findById(id))?.mustChangePassword).toBe(false);

    await ctx.core.updateUser.execute({ actor: admin.actor, id, password: 'reset-by-root' });
    expect((await meOf('alice', 'reset-by-root')).me.mustChangePassword).toBe(true);
  });

  it('is cleared, not set, when an admin sets their own password through the admin route', async () => {
    const ctx = makeCore();
    const { username, generatedPassword } = await ctx.core.ensureAdmin.execute({ username: null, password: null });
    const { token } = sessionOf(await ctx.core.login.execute({ username, password: generatedPassword! }));
    const actor = await ctx.core.authenticate.execute({ token });
    await ctx.core.updateUser.execute({ actor, id: actor.userId, password: 'chosen-by-the-admin' });
    expect((await ctx.ports.users.findById(actor.userId))?.mustChangePassword).toBe(false);
  });

  it('blocks nothing: the user works as usual, and their API tokens are not touched', async () => {
    const { ctx, admin, meOf } = await withAdmin();
    await ctx.core.createUser.execute({ actor: admin.actor, username: 'alice', password: 'set-by-root' });
    const { actor } = await meOf('alice', 'set-by-root');
    const folder = await ctx.core.createFolder.execute({ actor, name: 'inbox', parentId: null });
    expect(folder.name).toBe('inbox');
    const api = await ctx.core.createApiToken.execute({ actor, name: 'ci' });
    const uploader = await ctx.core.authenticate.execute({ token: api.token });
    const paste = await ctx.core.createPaste.execute({ actor: uploader, content: 'hello' });
    expect(paste.name).toBeTypeOf('string');

    await ctx.core.changePassword.execute({
      actor,
      currentPassword: 'set-by-root',
      newPassword: 'chosen-by-alice',
      client: CLIENT,
    });
    await expect(ctx.core.authenticate.execute({ token: api.token })).resolves.toMatchObject({ via: 'uploader' });
  });
});
