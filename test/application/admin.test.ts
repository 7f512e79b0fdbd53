import { describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/index.js';
import type { Core, Ports } from '../../src/application/index.js';
import { bytes, failure, makeCore, sessionOf, signUp, TEST_LIMITS } from '../support/core.js';

const zeroUsage = {
  storage: { current: '0', max: String(TEST_LIMITS.storage) },
  files: { current: 0, max: TEST_LIMITS.files },
  folders: { current: 0, max: TEST_LIMITS.folders },
  pastes: { current: 0, max: TEST_LIMITS.pastes },
  collections: { current: 0, max: TEST_LIMITS.collections },
  shares: { current: 0, max: TEST_LIMITS.shares },
  tokens: { current: 0, max: TEST_LIMITS.tokens },
  requests: { current: 0, max: TEST_LIMITS.requests },
};

/** Every admin operation, called by `actor` on `targetId`. */
function adminCalls(core: Core, actor: Actor, targetId: string): Array<() => Promise<unknown>> {
  return [
    () => core.listUsers.execute({ actor }),
    () => core.getUser.execute({ actor, id: targetId }),
    () => core.createUser.execute({ actor, username: 'mallory', password: 'password-1' }),
    () => core.updateUser.execute({ actor, id: targetId, type: 'admin' }),
    () => core.deleteUser.execute({ actor, id: targetId }),
  ];
}

/** What a user without any second factor shows. */
const NO_MFA = { totp: false, passkeys: 0, recoveryCodesLeft: 0 };
/** How a user made with a password signs in: with it, and no single sign-on identity. */
const PASSWORD_ONLY = { hasPassword: true, oidc: null };

describe('admin access', () => {
  it('is forbidden to a plain user session', async () => {
    const ctx = makeCore();
    const alice = await signUp(ctx, 'alice');
    const bob = await signUp(ctx, 'bob');
    for (const call of adminCalls(ctx.core, alice.actor, bob.userId)) expect((await failure(call())).code).toBe('forbidden');
    expect(await ctx.ports.users.findById(bob.userId)).toMatchObject({ type: 'user' });
    expect(await ctx.ports.users.findByUsername('mallory')).toBeNull();
  });

  it("is forbidden to an admin's API token", async () => {
    const ctx = makeCore();
    const root = await signUp(ctx, 'root', 'admin');
    const bob = await signUp(ctx, 'bob');
    const created = await ctx.core.createApiToken.execute({ actor: root.actor, name: 'ci' });
    const uploader = await ctx.core.authenticate.execute({ token: created.token });
    expect(uploader.userType).toBe('admin');
    for (const call of adminCalls(ctx.core, uploader, bob.userId)) expect((await failure(call())).code).toBe('forbidden');
    expect(await ctx.ports.users.findById(bob.userId)).not.toBeNull();
  });
});

describe('listUsers and getUser', () => {
  it('list every user with usage and effective limits', async () => {
    const ctx = makeCore();
    const root = await signUp(ctx, 'root', 'admin');
    const alice = await signUp(ctx, 'alice');
    await ctx.core.createApiToken.execute({ actor: alice.actor, name: 'ci' });
    await ctx.ports.users.update(alice.userId, { limits: { files: 3 }, updatedAt: ctx.clock.now() });
    // signUp gives every user the same createdAt, so the repository's tie-break (random ids) decides the order.
    const list = (await ctx.core.listUsers.execute({ actor: root.actor })).sort((a, b) =>
      b.username.localeCompare(a.username),
    );
    expect(list).toEqual([
      { id: root.userId, username: 'root', type: 'admin', mfa: NO_MFA, ...PASSWORD_ONLY, ...zeroUsage },
      {
        id: alice.userId,
        username: 'alice',
        type: 'user',
        mfa: NO_MFA,
        ...PASSWORD_ONLY,
        ...zeroUsage,
        files: { current: 0, max: 3 },
        tokens: { current: 1, max: TEST_LIMITS.tokens },
      },
    ]);
    expect(await ctx.core.getUser.execute({ actor: root.actor, id: alice.userId })).toEqual(list[1]);
  });

  it('getUser is not_found for an unknown id', async () => {
    const ctx = makeCore();
    const root = await signUp(ctx, 'root', 'admin');
    expect((await failure(ctx.core.getUser.execute({ actor: root.actor, id: 'nope' }))).code).toBe('not_found');
  });
});

describe('createUser', () => {
  it('creates a plain user by default who can log in', async () => {
    const ctx = makeCore();
    const root = await signUp(ctx, 'root', 'admin');
    const record = await ctx.core.createUser.execute({ actor: root.actor, username: 'alice', password: 'password-1' });
    expect(record).toEqual({ id: expect.any(String), username: 'alice', type: 'user', mfa: NO_MFA, ...PASSWORD_ONLY, ...zeroUsage });
    const { user } = sessionOf(await ctx.core.login.execute({ username: 'alice', password: 'password-1' }));
    expect(user.id).toBe(record.id);
  });

  it('creates an admin when asked', async () => {
    const ctx = makeCore();
    const root = await signUp(ctx, 'root', 'admin');
    const record = await ctx.core.createUser.execute({
      actor: root.actor,
      username: 'second',
      password: 'password-1',
      type: 'admin',
    });
    expect(record.type).toBe('admin');
    expect(await ctx.ports.users.countAdmins()).toBe(2);
  });

  it.each([
    ['username', { username: 'x', password: 'password-1' }],
    ['password', { username: 'alice', password: '1234567' }],
    ['type', { username: 'alice', password: 'password-1', type: 'superuser' as 'admin' }],
  ])('rejects an invalid %s', async (field, input) => {
    const ctx = makeCore();
    const root = await signUp(ctx, 'root', 'admin');
    const err = await failure(ctx.core.createUser.execute({ actor: root.actor, ...input }));
    expect(err).toMatchObject({ code: 'bad_request', details: { field } });
    expect(await ctx.ports.users.list()).toHaveLength(1);
  });

  it('refuses a taken username, whatever its case', async () => {
    const ctx = makeCore();
    const root = await signUp(ctx, 'root', 'admin');
    const err = await failure(ctx.core.createUser.execute({ actor: root.actor, username: 'ROOT', password: 'password-1' }));
    expect(err.code).toBe('conflict');
  });
});

describe('updateUser', () => {
  it('sets limit overrides that take effect, and null puts the default back', async () => {
    const ctx = makeCore();
    const root = await signUp(ctx, 'root', 'admin');
    const alice = await signUp(ctx, 'alice');
    const limited = await ctx.core.updateUser.execute({
      actor: root.actor,
      id: alice.userId,
      limits: { tokens: 1, storage: 4096 },
    });
    expect(limited.tokens).toEqual({ current: 0, max: 1 });
    expect(limited.storage).toEqual({ current: '0', max: '4096' });
    expect(limited.files.max).toBe(TEST_LIMITS.files);
    // The maxima come with the caller, as every request authenticates: alice's next request sees them.
    const next = () => ctx.core.authenticate.execute({ token: alice.token });
    await ctx.core.createApiToken.execute({ actor: await next(), name: 'one' });
    const err = await failure(ctx.core.createApiToken.execute({ actor: await next(), name: 'two' }));
    expect(err.details).toEqual({ limit: 'tokens', max: 1, current: 1 });

    const reset = await ctx.core.updateUser.execute({ actor: root.actor, id: alice.userId, limits: { tokens: null } });
    expect(reset.tokens).toEqual({ current: 1, max: TEST_LIMITS.tokens });
    expect(reset.storage.max).toBe('4096');
    expect((await ctx.ports.users.findById(alice.userId))!.limits).toEqual({ storage: 4096 });
    await expect(ctx.core.createApiToken.execute({ actor: await next(), name: 'two' })).resolves.toBeTruthy();
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects the limit value %s', async (value) => {
    const ctx = makeCore();
    const root = await signUp(ctx, 'root', 'admin');
    const err = await failure(ctx.core.updateUser.execute({ actor: root.actor, id: root.userId, limits: { files: value } }));
    expect(err).toMatchObject({ code: 'bad_request', details: { field: 'limits.files' } });
    expect((await ctx.ports.users.findById(root.userId))!.limits).toEqual({});
  });

  it('rejects an unknown limit kind', async () => {
    const ctx = makeCore();
    const root = await signUp(ctx, 'root', 'admin');
    const limits = { bananas: 3 } as unknown as { files: number };
    const err = await failure(ctx.core.updateUser.execute({ actor: root.actor, id: root.userId, limits }));
    expect(err).toMatchObject({ code: 'bad_request', details: { field: 'limits.bananas' } });
  });

  it('changes the password and revokes every session, keeping API tokens', async () => {
    const ctx = makeCore();
    const root = await signUp(ctx, 'root', 'admin');
    const alice = await signUp(ctx, 'alice');
    const api = await ctx.core.createApiToken.execute({ actor: alice.actor, name: 'ci' });
    await ctx.core.updateUser.execute({ actor: root.actor, id: alice.userId, password: 'brand-new-password' });
    expect((await failure(ctx.core.authenticate.execute({ token: alice.token }))).code).toBe('unauthorized');
    expect((await failure(ctx.core.login.execute({ username: 'alice', password: 'alice-password' }))).code).toBe(
      'unauthorized',
    );
    await expect(ctx.core.login.execute({ username: 'alice', password: 'brand-new-password' })).resolves.toBeTruthy();
    await expect(ctx.core.authenticate.execute({ token: api.token })).resolves.toMatchObject({ via: 'uploader' });
    await expect(ctx.core.authenticate.execute({ token: root.token })).resolves.toBeTruthy();
  });

  it('rejects an invalid password or type and changes nothing', async () => {
    const ctx = makeCore();
    const root = await signUp(ctx, 'root', 'admin');
    const alice = await signUp(ctx, 'alice');
    const short = await failure(ctx.core.updateUser.execute({ actor: root.actor, id: alice.userId, password: 'short' }));
    expect(short).toMatchObject({ code: 'bad_request', details: { field: 'password' } });
    const type = 'owner' as 'admin';
    const badType = await failure(ctx.core.updateUser.execute({ actor: root.actor, id: alice.userId, type }));
    expect(badType).toMatchObject({ code: 'bad_request', details: { field: 'type' } });
    await expect(ctx.core.authenticate.execute({ token: alice.token })).resolves.toMatchObject({ userType: 'user' });
  });

  it('promotes and demotes', async () => {
    const ctx = makeCore();
    const root = await signUp(ctx, 'root', 'admin');
    const alice = await signUp(ctx, 'alice');
    const promoted = await ctx.core.updateUser.execute({ actor: root.actor, id: alice.userId, type: 'admin' });
    expect(promoted).toMatchObject({ id: alice.userId, username: 'alice', type: 'admin' });
    const aliceActor = await ctx.core.authenticate.execute({ token: alice.token });
    await expect(ctx.core.listUsers.execute({ actor: aliceActor })).resolves.toHaveLength(2);
    const demoted = await ctx.core.updateUser.execute({ actor: root.actor, id: alice.userId, type: 'user' });
    expect(demoted.type).toBe('user');
  });

  it('never demotes the last admin', async () => {
    const ctx = makeCore();
    const root = await signUp(ctx, 'root', 'admin');
    const err = await failure(ctx.core.updateUser.execute({ actor: root.actor, id: root.userId, type: 'user' }));
    expect(err.code).toBe('conflict');
    expect(await ctx.ports.users.countAdmins()).toBe(1);

    const second = await signUp(ctx, 'second', 'admin');
    await ctx.core.updateUser.execute({ actor: root.actor, id: second.userId, type: 'user' });
    const again = await failure(ctx.core.updateUser.execute({ actor: root.actor, id: root.userId, type: 'user' }));
    expect(again.code).toBe('conflict');
    await expect(
      ctx.core.updateUser.execute({ actor: root.actor, id: root.userId, type: 'admin' }),
    ).resolves.toMatchObject({ type: 'admin' });
  });

  it('is not_found for an unknown id', async () => {
    const ctx = makeCore();
    const root = await signUp(ctx, 'root', 'admin');
    expect((await failure(ctx.core.updateUser.execute({ actor: root.actor, id: 'nope', type: 'user' }))).code).toBe(
      'not_found',
    );
  });
});

/** Gives the user one of everything, straight through the ports; returns the blob key of their file. */
async function seed(ports: Ports, ownerId: string, tag: string): Promise<string> {
  const now = ports.clock.now();
  const blob = await ports.blobs.write(bytes(`bytes of ${tag}`));
  const folder = { id: ports.ids.newId(), ownerId, parentId: null, name: `${tag}-folder`, createdAt: now, updatedAt: now };
  await ports.folders.insert(folder);
  const file = {
    id: ports.ids.newId(),
    ownerId,
    folderId: folder.id,
    name: `${tag}.txt`,
    mime: 'text/plain',
    size: blob.size,
    blobKey: blob.key,
    uploaderTokenId: null,
    charset: null,
    createdAt: now,
    updatedAt: now,
  };
  await ports.files.insert(file);
  const collection = { id: ports.ids.newId(), ownerId, name: tag, fileIds: [file.id], createdAt: now, updatedAt: now };
  await ports.collections.insert(collection);
  const paste = {
    id: ports.ids.newId(),
    ownerId,
    name: tag,
    type: 'text',
    content: tag,
    size: tag.length,
    uploaderTokenId: null,
    charset: null,
    createdAt: now,
    updatedAt: now,
  };
  await ports.pastes.insert(paste);
  const share = {
    ownerId,
    passwordHash: null,
    views: 0,
    downloads: 0,
    expiresAt: null,
    maxViews: null,
    maxDownloads: null,
    createdAt: now,
  };
  await ports.shares.insert({ ...share, id: ports.ids.newShareId(), type: 'file', itemId: file.id });
  await ports.shares.insert({ ...share, id: ports.ids.newShareId(), type: 'paste', itemId: paste.id });
  await ports.usage.set(ownerId, { storage: blob.size + tag.length, files: 1, folders: 1, pastes: 1, collections: 1, shares: 2, tokens: 0, requests: 0 });
  return blob.key;
}

describe('deleteUser', () => {
  it('removes the user with every record and blob they own, and nothing of anyone else', async () => {
    const ctx = makeCore();
    const { ports } = ctx;
    const root = await signUp(ctx, 'root', 'admin');
    const alice = await signUp(ctx, 'alice');
    const bob = await signUp(ctx, 'bob');
    const aliceBlob = await seed(ports, alice.userId, 'alice');
    const bobBlob = await seed(ports, bob.userId, 'bob');
    const api = await ctx.core.createApiToken.execute({ actor: alice.actor, name: 'ci' });

    await ctx.core.deleteUser.execute({ actor: root.actor, id: alice.userId });

    expect(await ports.blobs.size(aliceBlob)).toBeNull();
    expect(await ports.users.findById(alice.userId)).toBeNull();
    expect(await ports.files.listByOwner(alice.userId)).toEqual([]);
    expect(await ports.folders.listByOwner(alice.userId)).toEqual([]);
    expect(await ports.collections.listByOwner(alice.userId)).toEqual([]);
    expect(await ports.pastes.listByOwner(alice.userId)).toEqual([]);
    expect(await ports.shares.listByOwner(alice.userId)).toEqual([]);
    expect(await ports.tokens.listByUser(alice.userId, 'session')).toEqual([]);
    expect(await ports.tokens.listByUser(alice.userId, 'uploader')).toEqual([]);
    expect(await ports.tokens.findById(api.id)).toBeNull();
    expect(await ports.usage.get(alice.userId)).toEqual({
      storage: 0, files: 0, folders: 0, pastes: 0, collections: 0, shares: 0, tokens: 0, requests: 0,
    });
    expect((await failure(ctx.core.authenticate.execute({ token: alice.token }))).code).toBe('unauthorized');
    expect((await failure(ctx.core.authenticate.execute({ token: api.token }))).code).toBe('unauthorized');
    expect((await failure(ctx.core.getUser.execute({ actor: root.actor, id: alice.userId }))).code).toBe('not_found');

    expect(await ports.blobs.size(bobBlob)).not.toBeNull();
    expect(await ports.files.listByOwner(bob.userId)).toHaveLength(1);
    expect(await ports.folders.listByOwner(bob.userId)).toHaveLength(1);
    expect(await ports.collections.listByOwner(bob.userId)).toHaveLength(1);
    expect(await ports.pastes.listByOwner(bob.userId)).toHaveLength(1);
    expect(await ports.shares.listByOwner(bob.userId)).toHaveLength(2);
    expect((await ports.usage.get(bob.userId)).files).toBe(1);
    await expect(ctx.core.authenticate.execute({ token: bob.token })).resolves.toBeTruthy();
    expect(await ctx.core.listUsers.execute({ actor: root.actor })).toHaveLength(2);
  });

  it('frees the username for a new account', async () => {
    const ctx = makeCore();
    const root = await signUp(ctx, 'root', 'admin');
    const alice = await signUp(ctx, 'alice');
    await ctx.core.deleteUser.execute({ actor: root.actor, id: alice.userId });
    await expect(
      ctx.core.createUser.execute({ actor: root.actor, username: 'alice', password: 'password-1' }),
    ).resolves.toMatchObject({ username: 'alice' });
  });

  it('refuses to delete yourself', async () => {
    const ctx = makeCore();
    const root = await signUp(ctx, 'root', 'admin');
    await signUp(ctx, 'second', 'admin');
    expect((await failure(ctx.core.deleteUser.execute({ actor: root.actor, id: root.userId }))).code).toBe('conflict');
    expect(await ctx.ports.users.findById(root.userId)).not.toBeNull();
  });

  it('is not_found for an unknown id', async () => {
    const ctx = makeCore();
    const root = await signUp(ctx, 'root', 'admin');
    expect((await failure(ctx.core.deleteUser.execute({ actor: root.actor, id: 'nope' }))).code).toBe('not_found');
  });
});
