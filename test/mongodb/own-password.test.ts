import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CryptoTokenSecrets } from '../../src/adapters/crypto/crypto-token-secrets.js';
import { COLLECTIONS } from '../../src/adapters/mongodb/index.js';
import { GUESSES_PER_TARGET_AND_ADDRESS } from '../../src/application/auth/throttle-rules.js';
import { startCoffer, type RunningCoffer } from '../../src/boot/server.js';
import { TestClock } from '../support/core.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from '../support/mongo.js';
import { ADMIN, CHEAP_ARGON2, dropDatabases, freshDbName, mongoConfig } from './mongo-app.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

const DAY_MS = 24 * 3_600_000;

/**
 * Two services as `npm start` runs them, on one MongoDB, sharing a clock the test moves. The clock starts at the real
 * time, so MongoDB's own TTL index (which reads the real time) never removes a session the test still counts on.
 */
describe.skipIf(!target)('own password and session lifetime across two instances on MongoDB', () => {
  const dbName = freshDbName();
  const clock = new TestClock(new Date());
  let instances: RunningCoffer[];
  let raw: MongoClient;
  let db: Db;

  async function call(i: number, method: string, path: string, token?: string, json?: unknown) {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `token ${token}`;
    if (json !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(instances[i]!.url + path, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }
  const login = async (i: number, username: string, password: string) =>
    call(i, 'POST', '/api/auth/login', undefined, { username, password });
  const session = async (i: number, username: string, password: string): Promise<string> => {
    const res = await login(i, username, password);
    expect(res.status).toBe(200);
    return res.body.token;
  };
  const me = async (i: number, token: string) => (await call(i, 'GET', '/api/auth/me', token)).status;

  beforeAll(async () => {
    const config = mongoConfig(target!.uri, dbName, { SESSION_TTL_DAYS: '30', SESSION_MAX_DAYS: '45' });
    instances = [
      await startCoffer(config, { argon2: CHEAP_ARGON2, clock }),
      await startCoffer(config, { argon2: CHEAP_ARGON2, clock }),
    ];
    raw = await MongoClient.connect(target!.uri);
    db = raw.db(dbName);
    const admin = await session(0, ADMIN.username, ADMIN.password);
    for (const username of ['alice', 'bob', 'carol']) {
      const created = await call(1, 'POST', '/api/admin/users', admin, { username, password: `${username}-password` });
      expect(created.status).toBe(201);
    }
  });

  afterAll(async () => {
    await Promise.all(instances?.map((i) => i.close()) ?? []);
    await raw?.close();
    await dropDatabases(target!.uri, [dbName]);
    await target?.stop();
  });

  it('ends the other sessions on every instance and keeps the one used; API tokens stay', async () => {
    const here = await session(0, 'alice', 'alice-password');
    const there = await session(1, 'alice', 'alice-password');
    const api = (await call(1, 'POST', '/api/token', there, { name: 'ci' })).body.token;
    const wrong = await call(1, 'POST', '/api/auth/password', here, { currentPassword: 'nope-nope', newPassword: 'x'.repeat(8) });
    expect(wrong.status).toBe(403);
    expect(await me(0, there)).toBe(200);

    const res = await call(0, 'POST', '/api/auth/password', here, {
      currentPassword: 'alice-password',
      newPassword: 'alice-new-password',
    });
    expect(res.status).toBe(204);
    expect(await me(1, there)).toBe(401);
    expect(await me(0, there)).toBe(401);
    expect(await me(1, here)).toBe(200);
    expect(await me(0, here)).toBe(200);
    expect((await call(1, 'GET', '/api/usage/stats', api)).status).toBe(200);
    expect((await login(1, 'alice', 'alice-password')).status).toBe(401);
    expect(await me(0, await session(1, 'alice', 'alice-new-password'))).toBe(200);
    const user = await db.collection(COLLECTIONS.users).findOne({ username: 'alice' });
    expect(user).toMatchObject({ credentialsEpoch: 1 });
    expect(await db.collection(COLLECTIONS.tokens).countDocuments({ userId: user!._id, type: 'session' })).toBe(2);
  });

  it('shares the lockout of wrong current passwords between instances, and holds back no one else', async () => {
    const bob = await session(0, 'bob', 'bob-password');
    const carol = await session(1, 'carol', 'carol-password');
    for (let i = 0; i < GUESSES_PER_TARGET_AND_ADDRESS; i++) {
      const res = await call(i % 2, 'POST', '/api/auth/password', bob, { currentPassword: `wrong-${i}-x`, newPassword: 'bob-new-password' });
      expect(res.status, `guess ${i + 1}`).toBe(403);
    }
    const locked = await call(1, 'POST', '/api/auth/password', bob, { currentPassword: 'bob-password', newPassword: 'bob-new-password' });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await login(0, 'bob', 'bob-password')).status).toBe(429);
    const other = await call(0, 'POST', '/api/auth/password', carol, { currentPassword: 'carol-password', newPassword: 'carol-new-password' });
    expect(other.status).toBe(204);
  });

  it('keeps a used session for 40 days, drops an unused one at 30, and ends every one at SESSION_MAX_DAYS', async () => {
    const used = await session(0, 'carol', 'carol-new-password');
    const unused = await session(1, 'carol', 'carol-new-password');
    const hash = new CryptoTokenSecrets().hash(used);
    const tokens = db.collection(COLLECTIONS.tokens);
    for (let day = 1; day <= 44; day++) {
      clock.advance(DAY_MS);
      expect(await me(day % 2, used), `day ${day}`).toBe(200);
      if (day === 30) expect(await me(0, unused)).toBe(401);
    }
    // The expiry moved in the database itself, capped at 45 days after the login.
    const stored = await tokens.findOne({ hash });
    expect(stored).not.toBeNull();
    expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBe(45 * DAY_MS);
    clock.advance(DAY_MS);
    expect(await me(1, used)).toBe(401);
  });
});
