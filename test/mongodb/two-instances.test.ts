import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOB_BUCKET, COLLECTIONS } from '../../src/adapters/mongodb/index.js';
import { Ports, type Core } from '../../src/application/index.js';
import type { Actor } from '../../src/domain/index.js';
import { bytes, sessionOf } from '../support/core.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from '../support/mongo.js';
import { treeProblems } from '../support/tree-check.js';
import { ADMIN, dropDatabases, freshDbName, mongoConfig, mongoInstance, type MongoInstance } from './mongo-app.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);
// Once, after every describe of this file: each of them uses the same server.
afterAll(async () => target?.stop());

const ROOM = 5;
const ATTEMPTS = 20;
const FILE_BYTES = 1000;
const ROUNDS = 50;

/** Logs a user in on `core`: a session made by one instance works on the other because it lives in the database. */
async function session(core: Core, username = 'alice'): Promise<Actor> {
  const { token } = sessionOf(await core.login.execute({ username, password: `${username}-password` }));
  return core.authenticate.execute({ token });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const codeOf = (result: PromiseSettledResult<unknown>) =>
  result.status === 'fulfilled' ? 'ok' : ((result.reason as { code?: string }).code ?? String(result.reason));

function tally(outcomes: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
  return counts;
}

describe.skipIf(!target)('two app instances on one MongoDB', () => {
  const dbName = freshDbName();
  let instances: MongoInstance[];
  let actors: Actor[];
  /** Bob has room for the rounds of races below; alice's maxima are the small ones the limit tests need. */
  let bobs: Actor[];
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
    const { token } = sessionOf(await b.core.login.execute(ADMIN));
    const admin = await b.core.authenticate.execute({ token });
    aliceId = (await a.core.createUser.execute({ actor: admin, username: 'alice', password: 'alice-password' })).id;
    actors = [await session(a.core), await session(b.core)];
    const bob = await a.core.createUser.execute({ actor: admin, username: 'bob', password: 'bob-password' });
    const room = 100_000;
    await b.core.updateUser.execute({ actor: admin, id: bob.id, limits: { folders: room, files: room, storage: room * FILE_BYTES } });
    bobs = [await session(a.core, 'bob'), await session(b.core, 'bob')];
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

  /** What the database holds for bob, read through a third set of repositories: a whole tree, counted exactly. */
  async function bobsTreeProblems(): Promise<string[]> {
    return treeProblems(instances[0]!.container.get<Ports>(Ports), bobs[0]!.userId);
  }

  it(`keeps the tree a tree through ${ROUNDS} rounds of crossing moves, one on each instance`, async () => {
    const [one, two] = instances.map((i) => i.core) as [Core, Core];
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const a = await one.createFolder.execute({ actor: bobs[0]!, name: `a${round}`, parentId: null });
      const b = await two.createFolder.execute({ actor: bobs[1]!, name: `b${round}`, parentId: null });
      const results = await Promise.allSettled([
        one.updateFolder.execute({ actor: bobs[0]!, id: a.id, parentId: b.id }),
        two.updateFolder.execute({ actor: bobs[1]!, id: b.id, parentId: a.id }),
      ]);
      outcomes.push(...results.map(codeOf));
      expect(results.map(codeOf).sort(), `round ${round}`).toEqual(['bad_request', 'ok']);
      await one.getFolder.execute({ access: { actor: bobs[0]!, share: null }, id: a.id });
    }
    console.log(`crossing moves over two instances: ${JSON.stringify(tally(outcomes))}`);
    expect(await bobsTreeProblems()).toEqual([]);
    const root = await two.listRoot.execute({ actor: bobs[1]! });
    expect(root.folders).toHaveLength(ROUNDS);
  }, 120_000);

  it('reads and deletes the cycle an old race left in the stored documents, on either instance', async () => {
    // What crossing moves left under the old ancestor paths: a under b and b under a, each listing itself as an
    // ancestor, with a file inside the loop.
    const at = new Date();
    const doc = (id: string, parentId: string, ancestors: string[]) => ({
      _id: id, ownerId: bobs[0]!.userId, parentId, ancestors, name: id, nameLower: id, createdAt: at, updatedAt: at,
    });
    await db.collection<{ _id: string }>(COLLECTIONS.folders).insertMany([
      doc('loop-a', 'loop-b', ['loop-a', 'loop-b']),
      doc('loop-b', 'loop-a', ['loop-b', 'loop-a']),
    ]);
    // Counted as the creates had counted them, so the delete below leaves the counters exact.
    expect(await instances[0]!.container.get<Ports>(Ports).usage.reserve(bobs[0]!.userId, 'folders', 2, Infinity)).toBe(true);
    const [one, two] = instances.map((i) => i.core) as [Core, Core];
    const file = await one.uploadFile.execute({
      actor: bobs[0]!, folderId: 'loop-b', name: null, filename: 'in-the-loop.bin', mime: 'application/octet-stream',
      content: bytes(Buffer.alloc(FILE_BYTES, 7)),
    });
    const view = await two.getFolder.execute({ access: { actor: bobs[1]!, share: null }, id: 'loop-a' });
    expect(view).toMatchObject({ id: 'loop-a', folders: [{ id: 'loop-b', folders: [], files: [{ id: file.id }] }] });
    await one.deleteFolder.execute({ actor: bobs[0]!, id: 'loop-a' });
    const byId = (name: string) => db.collection<{ _id: string }>(name);
    expect(await byId(COLLECTIONS.folders).countDocuments({ _id: { $in: ['loop-a', 'loop-b'] } })).toBe(0);
    expect(await byId(COLLECTIONS.files).countDocuments({ _id: file.id })).toBe(0);
  });

  it(`lets nothing stay in a folder deleted on one instance while the other puts things into it, ${ROUNDS} rounds`, async () => {
    const [one, two] = instances.map((i) => i.core) as [Core, Core];
    const [mine, theirs] = bobs as [Actor, Actor];
    const home = await one.createFolder.execute({ actor: mine, name: 'home', parentId: null });
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const parent = await one.createFolder.execute({ actor: mine, name: `p${round}`, parentId: null });
      const sub = await one.createFolder.execute({ actor: mine, name: 'sub', parentId: parent.id });
      const file = await one.uploadFile.execute({
        actor: mine, folderId: home.id, name: null, filename: `loose${round}.bin`, mime: 'application/octet-stream',
        content: bytes(Buffer.alloc(FILE_BYTES, round)),
      });
      const moving = await one.createFolder.execute({ actor: mine, name: `m${round}`, parentId: home.id });
      // The delete starts 0 to 24 ms after the others, so it falls at every step of theirs.
      const [deleteAfter, othersAfter] = [round % 25, 0];
      const later = (ms: number, run: () => Promise<unknown>) => pause(ms).then(run);
      const results = await Promise.allSettled([
        later(deleteAfter, () => one.deleteFolder.execute({ actor: mine, id: parent.id })),
        later(othersAfter, () => two.createFolder.execute({ actor: theirs, name: 'late', parentId: sub.id })),
        later(othersAfter, () =>
          two.uploadFile.execute({
            actor: theirs, folderId: sub.id, name: null, filename: `late${round}.bin`, mime: 'application/octet-stream',
            content: bytes(Buffer.alloc(FILE_BYTES, round), 250),
          }),
        ),
        later(othersAfter, () => two.updateFile.execute({ actor: theirs, id: file.id, folderId: sub.id })),
        later(othersAfter, () => two.updateFolder.execute({ actor: theirs, id: moving.id, parentId: sub.id })),
      ]);
      expect(codeOf(results[0]!)).toBe('ok');
      for (const result of results) expect(['ok', 'not_found']).toContain(codeOf(result));
      outcomes.push(...results.slice(1).map(codeOf));
    }
    console.log(`puts racing deletes over two instances: ${JSON.stringify(tally(outcomes))}`);
    expect(await bobsTreeProblems()).toEqual([]);
    // Every blob is some file's (alice's from the tests above, or bob's), and every chunk some blob's.
    const files = await db.collection(COLLECTIONS.files).find().toArray();
    const blobs = await db.collection(`${BLOB_BUCKET}.files`).distinct('_id');
    expect(blobs.map(String).sort()).toEqual(files.map((f) => String(f.blobKey)).sort());
    const chunkOwners = await db.collection(`${BLOB_BUCKET}.chunks`).distinct('files_id');
    expect(chunkOwners.map(String).sort()).toEqual(blobs.map(String).sort());
  }, 180_000);
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
    const { token } = sessionOf(await instances[1]!.core.login.execute(ADMIN));
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
        const { token } = sessionOf(await core.login.execute({ username, password }));
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
