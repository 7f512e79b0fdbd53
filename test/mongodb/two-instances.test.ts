import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOB_BUCKET, COLLECTIONS } from '../../src/adapters/mongodb/index.js';
import type { Core } from '../../src/application/index.js';
import type { Actor } from '../../src/domain/index.js';
import { bytes } from '../support/core.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from '../support/mongo.js';
import { ADMIN, dropDatabases, freshDbName, mongoConfig, mongoInstance, type MongoInstance } from './mongo-app.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);
// Once, after every describe of this file: each of them uses the same server.
afterAll(async () => target?.stop());

const ROOM = 5;
const ATTEMPTS = 20;
const FILE_BYTES = 1000;

/** Logs alice in on `core`: a session made by one instance works on the other because it lives in the database. */
async function session(core: Core): Promise<Actor> {
  const { token } = await core.login.execute({ username: 'alice', password: 'alice-password' });
  return core.authenticate.execute({ token });
}

describe.skipIf(!target)('two app instances on one MongoDB', () => {
  const dbName = freshDbName();
  let instances: MongoInstance[];
  let actors: Actor[];
  let raw: MongoClient;
  let db: Db;
  let aliceId: string;

  beforeAll(async () => {
    const config = mongoConfig(target!.uri, dbName, {
      LIMIT_FOLDERS: String(ROOM),
      LIMIT_STORAGE: String(ROOM * FILE_BYTES),
    });
    instances = [await mongoInstance(config), await mongoInstance(config)];
    const [a, b] = instances as [MongoInstance, MongoInstance];
    expect(a.persistence.db).not.toBe(b.persistence.db);
    await a.core.ensureAdmin.execute(ADMIN);
    const { token } = await b.core.login.execute(ADMIN);
    const admin = await b.core.authenticate.execute({ token });
    aliceId = (await a.core.createUser.execute({ actor: admin, username: 'alice', password: 'alice-password' })).id;
    actors = [await session(a.core), await session(b.core)];
    raw = await MongoClient.connect(target!.uri);
    db = raw.db(dbName);
  });

  afterAll(async () => {
    await Promise.all(instances?.map((i) => i.close()) ?? []);
    await raw?.close();
    await dropDatabases(target!.uri, [dbName]);
  });

  /** Runs `attempt(i)` ATTEMPTS times at once, alternating instances; returns how many succeeded and the codes. */
  async function race(attempt: (core: Core, actor: Actor, i: number) => Promise<unknown>) {
    const results = await Promise.allSettled(
      Array.from({ length: ATTEMPTS }, (_, i) => attempt(instances[i % 2]!.core, actors[i % 2]!, i)),
    );
    const codes = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as { code?: string }).code] : []));
    return { ok: results.filter((r) => r.status === 'fulfilled').length, codes };
  }

  it('lets exactly the room through when 20 folder creates race over both, and current equals what exists', async () => {
    const { ok, codes } = await race((core, actor, i) => core.createFolder.execute({ actor, name: `f${i}`, parentId: null }));
    expect(ok).toBe(ROOM);
    expect(new Set(codes)).toEqual(new Set(['limit_reached']));
    const existing = await db.collection(COLLECTIONS.folders).countDocuments({ ownerId: aliceId });
    expect(existing).toBe(ROOM);
    for (const { core } of instances) {
      expect((await core.getUsage.execute({ actor: actors[0]! })).folders.current).toBe(existing);
    }
  });

  it('lets exactly the storage room through when 20 GridFS uploads race, leaving no bytes of the refused ones', async () => {
    const { ok, codes } = await race((core, actor, i) =>
      core.uploadFile.execute({
        actor,
        folderId: null,
        name: null,
        filename: `u${i}.bin`,
        mime: 'application/octet-stream',
        content: bytes(Buffer.alloc(FILE_BYTES, i), 250),
      }),
    );
    expect(ok).toBe(ROOM);
    expect(new Set(codes)).toEqual(new Set(['limit_reached']));
    const files = await db.collection(COLLECTIONS.files).find({ ownerId: aliceId }).toArray();
    expect(files).toHaveLength(ROOM);
    const blobs = await db.collection(`${BLOB_BUCKET}.files`).find().toArray();
    expect(blobs.map((b) => b._id).sort()).toEqual(files.map((f) => f.blobKey).sort());
    const chunkOwners = await db.collection(`${BLOB_BUCKET}.chunks`).distinct('files_id');
    expect(chunkOwners.sort()).toEqual(blobs.map((b) => b._id).sort());
    const usage = await instances[1]!.core.getUsage.execute({ actor: actors[1]! });
    expect(usage.storage.current).toBe(String(ROOM * FILE_BYTES));
    expect(usage.files.current).toBe(ROOM);
  });
});

describe.skipIf(!target)('the last admin, with two app instances on one MongoDB', () => {
  const dbName = freshDbName();
  const ROUNDS = 5;
  const TEAM = 4;
  let instances: MongoInstance[];
  let root: Actor;

  beforeAll(async () => {
    const config = mongoConfig(target!.uri, dbName);
    instances = [await mongoInstance(config), await mongoInstance(config)];
    await instances[0]!.core.ensureAdmin.execute(ADMIN);
    const { token } = await instances[1]!.core.login.execute(ADMIN);
    root = await instances[1]!.core.authenticate.execute({ token });
  });

  afterAll(async () => {
    await Promise.all(instances?.map((i) => i.close()) ?? []);
    await dropDatabases(target!.uri, [dbName]);
  });

  /** TEAM new admins, each logged in on the instance that will send their request. */
  async function team(tag: string): Promise<Array<{ actor: Actor; userId: string }>> {
    return Promise.all(
      Array.from({ length: TEAM }, async (_, i) => {
        const core = instances[i % 2]!.core;
        const username = `${tag}-${i}`;
        const password = `${username}-password`;
        const { id } = await core.createUser.execute({ actor: root, username, password, type: 'admin' });
        const { token } = await core.login.execute({ username, password });
        return { actor: await core.authenticate.execute({ token }), userId: id };
      }),
    );
  }

  async function admins(): Promise<Array<{ id: string; username: string }>> {
    return (await instances[0]!.core.listUsers.execute({ actor: root })).filter((u) => u.type === 'admin');
  }

  /** Hands the deployment back to root alone, through the guarded paths, ready for the next round. */
  async function restoreRoot(survivor: Actor): Promise<void> {
    const core = instances[0]!.core;
    await core.updateUser.execute({ actor: survivor, id: root.userId, type: 'admin' });
    for (const admin of await admins()) {
      if (admin.id !== root.userId) await core.updateUser.execute({ actor: root, id: admin.id, type: 'user' });
    }
  }

  it(`keeps one admin when ${TEAM} admins demote themselves at once across both instances, ${ROUNDS} rounds`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      // root steps aside first, so the team are the only admins and every one of them races to leave.
      const members = await team(`demote${round}`);
      await instances[1]!.core.updateUser.execute({ actor: members[0]!.actor, id: root.userId, type: 'user' });
      const results = await Promise.allSettled(
        members.map(({ actor, userId }, i) =>
          instances[i % 2]!.core.updateUser.execute({ actor, id: userId, type: 'user' }),
        ),
      );
      const left = await admins();
      expect(left, `round ${round}`).toHaveLength(1);
      expect(results.filter((r) => r.status === 'rejected').map((r) => (r.reason as { code?: string }).code)).toEqual([
        'conflict',
      ]);
      await restoreRoot(members.find((m) => m.userId === left[0]!.id)!.actor);
    }
  });

  it(`keeps one admin when ${TEAM} admins delete one another at once across both instances, ${ROUNDS} rounds`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const members = await team(`delete${round}`);
      await instances[1]!.core.updateUser.execute({ actor: members[0]!.actor, id: root.userId, type: 'user' });
      const results = await Promise.allSettled(
        members.map(({ actor }, i) =>
          instances[i % 2]!.core.deleteUser.execute({ actor, id: members[(i + 1) % TEAM]!.userId }),
        ),
      );
      const left = await admins();
      expect(left, `round ${round}`).toHaveLength(1);
      expect(results.filter((r) => r.status === 'rejected').map((r) => (r.reason as { code?: string }).code)).toEqual([
        'conflict',
      ]);
      await restoreRoot(members.find((m) => m.userId === left[0]!.id)!.actor);
    }
  });
});
