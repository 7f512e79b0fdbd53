import { MongoClient, type Db } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { COLLECTIONS, ensureIndexes, MongoUserRepository } from '../../src/adapters/mongodb/index.js';
import { aUser, at } from '../contracts/fixtures.js';
import { getMongoUri, MONGO_SKIP_MESSAGE, useFreshDatabases } from '../support/mongo.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

/** The admin count as stored, read past the adapter. */
async function storedCount(db: Db): Promise<number | undefined> {
  const doc = await db.collection<{ _id: string; count: number }>(COLLECTIONS.counters).findOne({ _id: 'admins' });
  return doc?.count;
}

describe.skipIf(!target)('the admin count in MongoDB', () => {
  const databases = useFreshDatabases(target!);

  async function freshUsers(): Promise<{ db: Db; users: MongoUserRepository }> {
    const db = databases.fresh();
    await ensureIndexes(db);
    return { db, users: new MongoUserRepository(db) };
  }

  it('is kept in one document as admins come and go', async () => {
    const { db, users } = await freshUsers();
    const [a, b] = [aUser({ type: 'admin' }), aUser({ type: 'admin' })];
    await users.insert(a);
    await users.insert(b);
    await users.insert(aUser());
    expect(await storedCount(db)).toBe(2);
    expect(await users.setType(a.id, 'user', at(1))).toBe('done');
    expect(await storedCount(db)).toBe(1);
    expect(await users.delete(b.id)).toBe('last_admin');
    expect(await storedCount(db)).toBe(1);
  });

  it('is made from the records on first use in a database from before it existed', async () => {
    const { db, users } = await freshUsers();
    const admins = [aUser({ type: 'admin' }), aUser({ type: 'admin' }), aUser({ type: 'admin' })];
    for (const admin of admins) await db.collection<ReturnType<typeof toRaw>>(COLLECTIONS.users).insertOne(toRaw(admin));
    expect(await storedCount(db)).toBeUndefined();
    const outcomes = await Promise.all(admins.map((admin) => users.setType(admin.id, 'user', at(1))));
    expect(outcomes.sort()).toEqual(['done', 'done', 'last_admin']);
    expect(await storedCount(db)).toBe(1);
    expect(await users.countAdmins()).toBe(1);
  });

  it('errs low after a crash mid-demotion, refusing early until reconcile fixes it', async () => {
    const { db, users } = await freshUsers();
    const [a, b] = [aUser({ type: 'admin' }), aUser({ type: 'admin' })];
    await users.insert(a);
    await users.insert(b);
    // A demotion that took its seat and died before writing the user.
    await db.collection(COLLECTIONS.counters).updateOne({ _id: 'admins' as never }, { $inc: { count: -1 } });
    expect(await users.setType(a.id, 'user', at(1))).toBe('last_admin');
    expect(await users.checkAdminCount(false)).toEqual({ stored: 1, actual: 2 });
    expect(await users.checkAdminCount(true)).toEqual({ stored: 1, actual: 2 });
    expect(await users.checkAdminCount(false)).toEqual({ stored: 2, actual: 2 });
    expect(await users.setType(a.id, 'user', at(2))).toBe('done');
  });

  it('gives a seat back when the guarded write finds the admin already changed', async () => {
    const { db, users } = await freshUsers();
    const [a, b, c] = [aUser({ type: 'admin' }), aUser({ type: 'admin' }), aUser({ type: 'admin' })];
    for (const admin of [a, b, c]) await users.insert(admin);
    // The same admin demoted and deleted at once: one of them finds it changed and must not cost a seat.
    const [, deleted] = await Promise.all([users.setType(a.id, 'user', at(1)), users.delete(a.id)]);
    // Whichever wrote second found the record changed: a demotion then finds it gone, a deletion a plain user.
    expect(deleted).toBe('done');
    expect(await users.findById(a.id)).toBeNull();
    expect(await storedCount(db)).toBe(2);
    expect(await users.countAdmins()).toBe(2);
  });

  it('leaves one admin when two processes (two clients) demote every admin at once, round after round', async () => {
    const other = await MongoClient.connect(target!.uri);
    try {
      for (let round = 0; round < 5; round++) {
        const { db } = await freshUsers();
        const repos = [new MongoUserRepository(db), new MongoUserRepository(other.db(db.databaseName))];
        const team = Array.from({ length: 6 }, () => aUser({ type: 'admin' }));
        for (const admin of team) await repos[0]!.insert(admin);
        const outcomes = await Promise.all(team.map((admin, i) => repos[i % 2]!.setType(admin.id, 'user', at(1))));
        expect(outcomes.filter((o) => o === 'last_admin'), `round ${round}`).toHaveLength(1);
        expect(await repos[1]!.countAdmins()).toBe(1);
        expect(await repos[1]!.checkAdminCount(false)).toEqual({ stored: 1, actual: 1 });
      }
    } finally {
      await other.close();
    }
  });
});

/** A user document as the adapter writes it, without going through the adapter. */
function toRaw(user: ReturnType<typeof aUser>) {
  return {
    _id: user.id,
    username: user.username,
    usernameLower: user.username.toLowerCase(),
    type: user.type,
    passwordHash: user.passwordHash,
    limits: user.limits,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
  };
}
