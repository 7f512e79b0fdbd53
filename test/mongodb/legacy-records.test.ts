import { describe, expect, it } from 'vitest';
import {
  COLLECTIONS,
  ensureIndexes,
  MongoFileRepository,
  MongoPasteRepository,
  MongoShareRepository,
  MongoTokenRepository,
  MongoUserRepository,
} from '../../src/adapters/mongodb/index.js';
import { isCurrentFor, mayShareItem, type Actor } from '../../src/domain/index.js';
import { at } from '../contracts/fixtures.js';
import { getMongoUri, MONGO_SKIP_MESSAGE, useFreshDatabases } from '../support/mongo.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

describe.skipIf(!target)('records written before credentials epochs', () => {
  const databases = useFreshDatabases(target!);

  it('read as epoch 0, so their sessions keep working until the next password change ends them', async () => {
    const db = databases.fresh();
    await ensureIndexes(db);
    const raw = { createdAt: at(0), updatedAt: at(0) };
    await db.collection<{ _id: string; [field: string]: unknown }>(COLLECTIONS.users).insertOne({
      _id: 'u1',
      username: 'old',
      usernameLower: 'old',
      type: 'user',
      passwordHash: 'h',
      limits: {},
      ...raw,
    });
    const token = { userId: 'u1', name: 'session', createdAt: at(0) };
    await db.collection<{ _id: string; [field: string]: unknown }>(COLLECTIONS.tokens).insertMany([
      { _id: 's1', type: 'session', hash: 'hs', expiresAt: at(60), ...token },
      { _id: 'a1', type: 'uploader', hash: 'ha', expiresAt: null, ...token },
    ]);
    const users = new MongoUserRepository(db);
    const tokens = new MongoTokenRepository(db);
    const session = (await tokens.findById('s1'))!;
    const api = (await tokens.findById('a1'))!;
    expect(session.credentialsEpoch).toBe(0);
    expect(api.credentialsEpoch).toBeNull();
    expect(isCurrentFor(session, (await users.findById('u1'))!)).toBe(true);

    const changed = (await users.update('u1', { passwordHash: 'h2', updatedAt: at(1) }))!;
    expect(changed.credentialsEpoch).toBe(1);
    expect(isCurrentFor(session, changed)).toBe(false);
    expect(isCurrentFor(api, changed)).toBe(true);
  });

  it("read as epoch 0 for a user's own password change, which keeps the session that made it", async () => {
    const db = databases.fresh();
    await ensureIndexes(db);
    const raw = (name: string) => db.collection<{ _id: string; [field: string]: unknown }>(name);
    await raw(COLLECTIONS.users).insertOne({
      _id: 'u1',
      username: 'old',
      usernameLower: 'old',
      type: 'user',
      passwordHash: 'h',
      limits: {},
      createdAt: at(0),
      updatedAt: at(0),
    });
    const token = { userId: 'u1', type: 'session', name: 'session', createdAt: at(0), expiresAt: at(60) };
    await raw(COLLECTIONS.tokens).insertMany([
      { _id: 's1', hash: 'h1', ...token },
      { _id: 's2', hash: 'h2', ...token },
    ]);
    const users = new MongoUserRepository(db);
    const tokens = new MongoTokenRepository(db);
    const change = { fromEpoch: 0, passwordHash: 'h2', keptSessionId: 's1', updatedAt: at(1) };
    const changed = (await users.changeOwnPassword('u1', change))!;
    expect(changed).toMatchObject({ credentialsEpoch: 1, keptSessionId: 's1' });
    expect(await tokens.moveEpoch('s1', 0, 1)).toBe(true);
    expect(isCurrentFor((await tokens.findById('s1'))!, changed)).toBe(true);
    expect(isCurrentFor((await tokens.findById('s2'))!, changed)).toBe(false);
  });

  it('users from before mustChangePassword read as false, and an admin reset or own change writes it', async () => {
    const db = databases.fresh();
    await ensureIndexes(db);
    const raw = db.collection<{ _id: string; [field: string]: unknown }>(COLLECTIONS.users);
    await raw.insertOne({
      _id: 'u1',
      username: 'old',
      usernameLower: 'old',
      type: 'user',
      passwordHash: 'h',
      limits: {},
      createdAt: at(0),
      updatedAt: at(0),
    });
    const users = new MongoUserRepository(db);
    expect(await users.findById('u1')).toMatchObject({ mustChangePassword: false });
    expect((await users.list())[0]).toMatchObject({ mustChangePassword: false });
    expect((await raw.findOne({ _id: 'u1' }))?.['mustChangePassword']).toBeUndefined();

    await users.update('u1', { passwordHash: 'h2', mustChangePassword: true, updatedAt: at(1) });
    expect((await raw.findOne({ _id: 'u1' }))?.['mustChangePassword']).toBe(true);
    await users.changeOwnPassword('u1', { fromEpoch: 1, passwordHash: 'h3', keptSessionId: 's1', updatedAt: at(2) });
    expect((await raw.findOne({ _id: 'u1' }))?.['mustChangePassword']).toBe(false);
  });

  it('files and pastes from before uploaderTokenId read as made by a session, so no uploader token shares them', async () => {
    const db = databases.fresh();
    await ensureIndexes(db);
    const common = { ownerId: 'u1', name: 'old', size: 1, createdAt: at(0), updatedAt: at(0) };
    const raw = (name: string) => db.collection<{ _id: string; [field: string]: unknown }>(name);
    await raw(COLLECTIONS.files).insertOne({
      _id: 'f1',
      folderId: null,
      nameLower: 'old',
      mime: 'text/plain',
      blobKey: 'b1',
      ...common,
    });
    await raw(COLLECTIONS.pastes).insertOne({
      _id: 'p1',
      type: 'text',
      content: 'x',
      ...common,
    });
    const file = (await new MongoFileRepository(db).findById('f1'))!;
    const paste = (await new MongoPasteRepository(db).findById('p1'))!;
    expect(file.uploaderTokenId).toBeNull();
    expect(paste.uploaderTokenId).toBeNull();
    const uploader: Actor = { userId: 'u1', userType: 'user', via: 'uploader', tokenId: 't1', limits: {} };
    expect(mayShareItem(uploader, file)).toBe(false);
    expect(mayShareItem(uploader, paste)).toBe(false);
    expect(mayShareItem({ ...uploader, via: 'session' }, file)).toBe(true);
  });

  it('shares from before lifetimes and limits read as unlimited, with no downloads, and count as before', async () => {
    const db = databases.fresh();
    await ensureIndexes(db);
    await db.collection<{ _id: string; [field: string]: unknown }>(COLLECTIONS.shares).insertOne({
      _id: 's1',
      ownerId: 'u1',
      type: 'file',
      itemId: 'f1',
      passwordHash: null,
      views: 4,
      createdAt: at(0),
    });
    const shares = new MongoShareRepository(db);
    const old = { id: 's1', ownerId: 'u1', type: 'file', itemId: 'f1', passwordHash: null, createdAt: at(0) };
    const unlimited = { expiresAt: null, maxViews: null, maxDownloads: null };
    expect(await shares.findById('s1')).toEqual({ ...old, ...unlimited, views: 4, downloads: 0 });
    expect(await shares.listByOwner('u1')).toEqual([{ ...old, ...unlimited, views: 4, downloads: 0 }]);
    expect(await shares.countUse('s1', 'downloads', at(1))).toMatchObject({ views: 4, downloads: 1 });
    expect(await shares.countUse('s1', 'views', at(1))).toMatchObject({ views: 5, downloads: 1 });
    await db.collection<{ _id: string }>(COLLECTIONS.shares).updateOne({ _id: 's1' }, { $unset: { downloads: '' } });
    await shares.update('s1', { maxDownloads: 1 });
    expect(await shares.countUse('s1', 'downloads', at(1))).toMatchObject({ downloads: 1, maxDownloads: 1 });
    expect(await shares.countUse('s1', 'downloads', at(1))).toBeNull();
  });
});
