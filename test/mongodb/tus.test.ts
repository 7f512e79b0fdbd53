import { afterAll, describe, expect, it } from 'vitest';
import { startCoffer, type RunningCoffer } from '../../src/boot/server.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from '../support/mongo.js';
import { MIB, adminLogin, cuttingRelay, downloadSha256, sampleBytes, sha256, tusUpload, usageOf } from '../support/tus-client.js';
import { CHEAP_ARGON2, dropDatabases, freshDbName, mongoConfig } from './mongo-app.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);
afterAll(() => target?.stop());


describe.skipIf(!target)('resumable uploads on MongoDB with GridFS', () => {
  const names: string[] = [];
  const running: RunningCoffer[] = [];
  const start = async (dbName: string, env: Record<string, string> = {}) => {
    const coffer = await startCoffer(mongoConfig(target!.uri, dbName, env), { argon2: CHEAP_ARGON2 });
    running.push(coffer);
    return coffer;
  };
  afterAll(async () => {
    for (const coffer of running) await coffer.close();
    await dropDatabases(target!.uri, names);
  });

  it('tus-js-client uploads 64 MiB in 8 MiB chunks, is cut off mid-chunk, resumes, and the bytes match', async () => {
    const dbName = freshDbName();
    names.push(dbName);
    const coffer = await start(dbName, { MAX_UPLOAD_BYTES: String(128 * MIB) });
    const token = await adminLogin(coffer.url);
    const data = sampleBytes(64 * MIB, 7);
    const relay = await cuttingRelay(coffer.url, 28 * MIB + 777);
    try {
      const { fileId, resumedAt } = await tusUpload(relay.url, token, data, { chunkSize: 8 * MIB });
      expect(relay.cuts).toBe(1);
      expect(Math.max(...resumedAt)).toBeGreaterThanOrEqual(24 * MIB);
      expect(await downloadSha256(coffer.url, fileId, token)).toEqual({ hash: sha256(data), size: data.length });
      expect(await usageOf(coffer.url, token)).toEqual({ storage: String(data.length), files: 1 });
    } finally {
      await relay.close();
    }
  }, 180_000);

  it('10 parallel uploads over two instances with room for 5 end as exactly 5 files, counted exactly', async () => {
    const dbName = freshDbName();
    names.push(dbName);
    const size = 256 * 1024;
    const env = { LIMIT_STORAGE: String(5 * size) };
    const instances = [await start(dbName, env), await start(dbName, env)];
    const token = await adminLogin(instances[0]!.url);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        tusUpload(instances[i % 2]!.url, token, sampleBytes(size, i + 1), { chunkSize: size, filename: `f${i}.bin` }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
    for (const o of outcomes) if (o.status === 'rejected') expect(String(o.reason)).toContain('limit_reached');
    const root = await fetch(`${instances[1]!.url}/api/folder`, { headers: { authorization: `token ${token}` } });
    expect(((await root.json()) as { files: unknown[] }).files).toHaveLength(5);
    expect(await usageOf(instances[1]!.url, token)).toEqual({ storage: String(5 * size), files: 5 });
  }, 120_000);
});
