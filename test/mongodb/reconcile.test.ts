import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Double, MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTIONS } from '../../src/adapters/mongodb/index.js';
import type { Usage } from '../../src/domain/index.js';
import { runReconcile } from '../../src/boot/reconcile.js';
import { populate } from '../persistence/populate.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from '../support/mongo.js';
import { ADMIN, dropDatabases, freshDbName, mongoConfig, mongoInstance, type MongoInstance } from './mongo-app.js';
import { sessionOf } from '../support/core.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

const ROOT = join(import.meta.dirname, '..', '..');

/** `npm run reconcile` as an operator runs it, with only environment variables as input. */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/reconcile-cli.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
}

describe.skipIf(!target)('reconcile on MongoDB', () => {
  const dbName = freshDbName();
  let instance: MongoInstance;
  let raw: MongoClient;
  let db: Db;
  let aliceId: string;
  let expected: Usage;

  const storedUsage = async () => {
    const doc = await db.collection(COLLECTIONS.usage).findOne({ _id: aliceId as never });
    return Object.fromEntries(Object.entries(doc ?? {}).filter(([k]) => k !== '_id').map(([k, v]) => [k, Number(v)]));
  };

  beforeAll(async () => {
    const config = mongoConfig(target!.uri, dbName);
    instance = await mongoInstance(config);
    await instance.core.ensureAdmin.execute(ADMIN);
    const { token } = sessionOf(await instance.core.login.execute(ADMIN));
    const admin = await instance.core.authenticate.execute({ token });
    aliceId = (await instance.core.createUser.execute({ actor: admin, username: 'alice', password: 'alice-password' })).id;
    const session = sessionOf(await instance.core.login.execute({ username: 'alice', password: 'alice-password' }));
    expected = await populate(instance.core, await instance.core.authenticate.execute({ token: session.token }));
    raw = await MongoClient.connect(target!.uri);
    db = raw.db(dbName);
  });

  afterAll(async () => {
    await instance?.close();
    await raw?.close();
    await dropDatabases(target!.uri, [dbName]);
    await target?.stop();
  });

  it('finds drift written straight into the database, and repairs it with fix', async () => {
    const config = mongoConfig(target!.uri, dbName);
    const write = () => undefined;
    expect((await runReconcile(config, { fix: false, write })).drifted).toEqual([]);

    await db.collection(COLLECTIONS.usage).updateOne(
      { _id: aliceId as never },
      { $set: { storage: new Double(1_000_000), files: new Double(7) } },
    );
    // A folder whose record went missing behind the counter, as a crash half-way through a cascade could leave.
    await db.collection(COLLECTIONS.folders).deleteOne({ ownerId: aliceId, name: 'inner' });

    const lines: string[] = [];
    const report = await runReconcile(config, { fix: false, write: (line) => lines.push(line) });
    expect(report.drifted).toEqual([
      expect.objectContaining({
        userId: aliceId,
        username: 'alice',
        drift: { storage: expected.storage - 1_000_000, files: expected.files - 7, folders: -1 },
      }),
    ]);
    expect(lines[0]).toBe(`alice (${aliceId}): storage 1000000 → 15, files 7 → 1, folders 2 → 1`);
    expect(await storedUsage()).toMatchObject({ storage: 1_000_000, files: 7, folders: 2 });

    await runReconcile(config, { fix: true, write });
    expect(await storedUsage()).toEqual({ ...expected, folders: 1 });
    expect((await runReconcile(config, { fix: false, write })).drifted).toEqual([]);
  });

  it('runs as npm run reconcile: reports, repairs with --fix, and exits 0', async () => {
    await db.collection(COLLECTIONS.usage).updateOne({ _id: aliceId as never }, { $set: { shares: new Double(9) } });
    const env = { MONGODB_URI: target!.uri, MONGODB_DB: dbName };

    const report = await cli([], env);
    expect(report.code).toBe(0);
    expect(report.out).toContain(`alice (${aliceId}): shares 9 → 1`);
    expect(report.out).toContain('drift found (run with --fix to repair) for 1');
    expect((await storedUsage()).shares).toBe(9);

    const fix = await cli(['--fix'], env);
    expect(fix.code).toBe(0);
    expect(fix.out).toContain('drift repaired for 1');
    expect((await storedUsage()).shares).toBe(1);

    const bad = await cli(['--fix'], { ...env, MONGODB_DB: 'not/valid' });
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('MONGODB_DB');
  }, 60_000);
});
