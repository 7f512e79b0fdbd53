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
    await target?.stop();
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
