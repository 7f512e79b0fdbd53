import { mkdir, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MongoClient, ObjectId } from 'mongodb';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { createCore, type Core, type FileRepository, type Ports } from '../../src/application/index.js';
import { BLOB_BUCKET, COLLECTIONS, GridFsBlobStore, MongoUsageCounter } from '../../src/adapters/mongodb/index.js';
import { loadConfig } from '../../src/boot/config.js';
import { createLogger } from '../../src/boot/logger.js';
import { scheduleOrphanSweeps, sweepOrphanBlobs } from '../../src/boot/orphan-sweep.js';
import { startCoffer, type RunningCoffer } from '../../src/boot/server.js';
import { bytes, makeCore, signUp } from '../support/core.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from '../support/mongo.js';
import { tempDir } from '../support/temp.js';
import { CHEAP_ARGON2, dropDatabases, freshDbName, mongoConfig } from '../mongodb/mongo-app.js';
import { until } from '../support/wait.js';

const HOUR = 3_600_000;
const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

/** The fs store keeps its directory private; these tests read and age raw storage rather than trusting the store. */
const dirOf = (ports: Ports) => join((ports.blobs as unknown as { blobsDir: string }).blobsDir, '..');
const blobPath = (ports: Ports, key: string) => join(dirOf(ports), 'blobs', key.slice(0, 2), key);

async function age(path: string, at: Date): Promise<void> {
  await utimes(path, at, at);
}

async function keysOnDisk(dir: string): Promise<string[]> {
  const entries = await readdir(join(dir, 'blobs'), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => e.name).sort();
}

describe('a crash between writing the bytes and recording the file', () => {
  let t: HttpTest;
  afterEach(() => t.close());

  it('leaves bytes no record points at, which the sweep removes once older than the grace period', async () => {
    // The process "dies" inside insert: the promise never settles, so no cleanup of the upload ever runs.
    let crashed = false;
    const crashingInsert = (files: FileRepository): FileRepository =>
      Object.assign(Object.create(files) as FileRepository, {
        insert: (file: Parameters<FileRepository['insert']>[0]) =>
          crashed ? new Promise<void>(() => {}) : files.insert(file),
      });
    t = await makeHttp({ blobs: 'fs', wrapPorts: (p) => ({ ...p, files: crashingInsert(p.files) }) });
    const token = await t.userToken('alice');
    const kept = await t.upload(token, 'kept bytes', { filename: 'kept.txt' });
    expect(kept.status).toBe(201);

    crashed = true;
    const abort = new AbortController();
    const lost = fetch(`${t.url}/api/file`, {
      method: 'POST',
      headers: { authorization: `token ${token}` },
      body: (() => {
        const form = new FormData();
        form.append('file', new Blob(['lost bytes']), 'lost.txt');
        return form;
      })(),
      signal: abort.signal,
    }).catch(() => null);
    const dir = dirOf(t.ports);
    await until(async () => (await keysOnDisk(dir)).length === 2, 'the second blob to be written');
    abort.abort();
    await lost;

    const keptKey = (await t.ports.files.findById(kept.body.id))!.blobKey;
    const orphan = (await keysOnDisk(dir)).find((key) => key !== keptKey)!;
    expect(await t.ports.files.referencedBlobKeys([orphan, keptKey])).toEqual(new Set([keptKey]));

    // Within the grace period the orphan is indistinguishable from an upload still under way: it stays.
    const now = t.clock.now().getTime();
    await age(blobPath(t.ports, orphan), new Date(now - HOUR / 2));
    await age(blobPath(t.ports, keptKey), new Date(now - 2 * HOUR));
    expect(await t.core.sweepOrphanBlobs.execute({ graceMs: HOUR })).toMatchObject({ scanned: 2, deleted: 0 });
    expect(await keysOnDisk(dir)).toEqual([keptKey, orphan].sort());

    await age(blobPath(t.ports, orphan), new Date(now - 2 * HOUR));
    expect(await t.core.sweepOrphanBlobs.execute({ graceMs: HOUR })).toEqual({
      scanned: 2,
      deleted: 1,
      failed: 0,
      incomplete: 0,
    });
    expect(await keysOnDisk(dir)).toEqual([keptKey]);
    const download = await t.request('GET', `/api/file/${kept.body.id}/content`, { token });
    expect(download.text).toBe('kept bytes');
  });
});

describe('the sweep, on the use case', () => {
  it('deletes only old unreferenced blobs and stale temporary files, and reports the counts', async () => {
    const { core, ports, clock } = makeCore({ blobs: 'fs' });
    const alice = await signUp({ core, ports }, 'alice');
    const file = await core.uploadFile.execute({
      actor: alice.actor,
      folderId: null,
      name: null,
      filename: 'a.txt',
      mime: 'text/plain',
      content: bytes('recorded'),
    });
    const recorded = (await ports.files.findById(file.id))!.blobKey;
    const old = await ports.blobs.write(bytes('crash leftover'));
    const young = await ports.blobs.write(bytes('upload under way'));
    const dir = dirOf(ports);
    const now = clock.now().getTime();
    for (const key of [recorded, old.key]) await age(blobPath(ports, key), new Date(now - 3 * HOUR));
    await age(blobPath(ports, young.key), new Date(now - 1000));
    // A temporary file a killed write left, and one of a write still running.
    await mkdir(join(dir, 'tmp'), { recursive: true });
    await writeFile(join(dir, 'tmp', 'stale'), 'half a file');
    await writeFile(join(dir, 'tmp', 'active'), 'being written');
    await age(join(dir, 'tmp', 'stale'), new Date(now - 3 * HOUR));
    await age(join(dir, 'tmp', 'active'), new Date(now));

    const report = await core.sweepOrphanBlobs.execute({ graceMs: HOUR });
    expect(report).toEqual({ scanned: 3, deleted: 1, failed: 0, incomplete: 1 });
    expect(await keysOnDisk(dir)).toEqual([recorded, young.key].sort());
    expect(await readdir(join(dir, 'tmp'))).toEqual(['active']);
    expect(await core.sweepOrphanBlobs.execute({ graceMs: HOUR })).toEqual({
      scanned: 2,
      deleted: 0,
      failed: 0,
      incomplete: 0,
    });
  });

  it('sweeps in batches and keeps going when a delete fails', async () => {
    const { ports, clock } = makeCore();
    const written = [];
    for (let i = 0; i < 1203; i++) written.push(await ports.blobs.write(bytes(`b${i}`)));
    const failing = new Set(written.slice(0, 3).map((w) => w.key));
    const blobs = Object.assign(Object.create(ports.blobs) as Ports['blobs'], {
      delete: async (key: string) => {
        if (failing.has(key)) throw new Error('EIO');
        return ports.blobs.delete(key);
      },
    });
    const core = createCore({ ...ports, blobs });
    // The memory store stamps blobs with the real time; the test clock is moved well past it.
    clock.advance(Date.now() - clock.now().getTime() + 2 * HOUR);
    expect(await core.sweepOrphanBlobs.execute({ graceMs: HOUR })).toEqual({
      scanned: 1203,
      deleted: 1200,
      failed: 3,
      incomplete: 0,
    });
    const left = new Set<string>();
    for await (const entry of ports.blobs.list()) left.add(entry.key);
    expect(left).toEqual(failing);
  });

  it('refuses a negative grace period as a bug', async () => {
    const { core } = makeCore();
    await expect(core.sweepOrphanBlobs.execute({ graceMs: -1 })).rejects.toThrow(RangeError);
  });
});

describe('the scheduled sweep', () => {
  it('runs on its interval one sweep at a time, never holds the process, and stops cleanly', async () => {
    let running = 0;
    let overlapped = false;
    let calls = 0;
    const core = {
      sweepOrphanBlobs: {
        execute: async () => {
          calls++;
          overlapped ||= running > 0;
          running++;
          await new Promise((r) => setTimeout(r, 60));
          running--;
          return { scanned: 0, deleted: 0, failed: 0, incomplete: 0 };
        },
      },
      sweepStaleHolds: { execute: async () => ({ stale: 0, settled: 0, released: 0, failed: 0 }) },
      sweepExpiredUploads: { execute: async () => ({ expired: 0, failed: 0 }) },
    } as unknown as Core;
    const stop = scheduleOrphanSweeps(core, createLogger('silent'), { intervalMs: 10 });
    await new Promise((r) => setTimeout(r, 300));
    await stop();
    expect(running).toBe(0);
    const after = calls;
    expect(after).toBeGreaterThanOrEqual(2);
    expect(overlapped).toBe(false);
    await new Promise((r) => setTimeout(r, 100));
    expect(calls).toBe(after);
  });

  it('logs a failing sweep instead of throwing', async () => {
    const lines: string[] = [];
    const logger = createLogger('info', new Writable({ write: (c, _e, done) => done(void lines.push(String(c))) }));
    const core = { sweepOrphanBlobs: { execute: () => Promise.reject(new Error('store down')) } } as unknown as Core;
    await expect(sweepOrphanBlobs(core, logger)).resolves.toBeUndefined();
    expect(lines.join('')).toContain('sweeping orphan blobs failed');
  });
});

describe('the start-up sweep', () => {
  const running: RunningCoffer[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.close()));
  });

  it('never runs on memory persistence, whose records cannot tell what the directory holds', async () => {
    const dataDir = tempDir('sweep');
    const key = 'ab'.repeat(16);
    await mkdir(join(dataDir, 'blobs', 'ab'), { recursive: true });
    await writeFile(join(dataDir, 'blobs', 'ab', key), 'bytes of a database this start did not reach');
    await age(join(dataDir, 'blobs', 'ab', key), new Date(Date.now() - 24 * HOUR));
    const config = { ...loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'silent' }), port: 0 };
    running.push(await startCoffer(config, { argon2: CHEAP_ARGON2, logger: createLogger('silent') }));
    expect(await keysOnDisk(dataDir)).toEqual([key]);
  });

  describe.skipIf(!target)('on MongoDB', () => {
    const databases: string[] = [];
    afterAll(async () => {
      await dropDatabases(target!.uri, databases);
      await target?.stop();
    });

    async function restart(config: ReturnType<typeof mongoConfig>): Promise<RunningCoffer> {
      const started = await startCoffer(config, { argon2: CHEAP_ARGON2, logger: createLogger('silent') });
      running.push(started);
      return started;
    }

    async function uploadAs(url: string, text: string): Promise<string> {
      const login = await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'root', password: 'root-password-long' }),
      });
      const { token } = (await login.json()) as { token: string };
      const form = new FormData();
      form.append('file', new Blob([text]), 'kept.txt');
      const res = await fetch(`${url}/api/file`, { method: 'POST', headers: { authorization: `token ${token}` }, body: form });
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: string }).id;
    }

    it('with the fs store: bytes and counts a crash left go at the next start, recorded ones stay', async () => {
      const dbName = freshDbName();
      databases.push(dbName);
      const dataDir = tempDir('sweep');
      const config = mongoConfig(target!.uri, dbName, { BLOB_STORE: 'fs', DATA_DIR: dataDir });
      const first = await restart(config);
      await uploadAs(first.url, 'recorded');
      await first.close();
      const [recorded] = await keysOnDisk(dataDir);
      // The counts the crashed upload had reserved, under its hold, as the upload wrote them: its instance is gone.
      const client = await MongoClient.connect(target!.uri);
      const usage = new MongoUsageCounter(client.db(dbName));
      const [rootId] = await client.db(dbName).collection<{ _id: string }>(COLLECTIONS.usage).distinct('_id');
      const recordedUsage = await usage.get(rootId!);
      expect(recordedUsage).toMatchObject({ files: 1, storage: 'recorded'.length });
      const lostHold = { id: 'never-recorded-file_id', at: new Date(Date.now() - 2 * HOUR), by: 'gone-instance' };
      await usage.reserve(rootId!, 'files', 1, 100, lostHold);
      await usage.reserve(rootId!, 'storage', 'never recorded'.length, 10_000, lostHold);

      // The crash: bytes written by an upload whose record never made it, and a temporary file of another.
      const orphan = 'cd'.repeat(16);
      await mkdir(join(dataDir, 'blobs', 'cd'), { recursive: true });
      await writeFile(join(dataDir, 'blobs', 'cd', orphan), 'never recorded');
      await writeFile(join(dataDir, 'tmp', 'ef'.repeat(16)), 'half written');
      const longAgo = new Date(Date.now() - 2 * HOUR);
      for (const path of [
        join(dataDir, 'blobs', recorded!.slice(0, 2), recorded!),
        join(dataDir, 'blobs', 'cd', orphan),
        join(dataDir, 'tmp', 'ef'.repeat(16)),
      ]) {
        await age(path, longAgo);
      }

      await restart(config);
      expect(await usage.get(rootId!)).toEqual(recordedUsage);
      await client.close();
      expect(await keysOnDisk(dataDir)).toEqual([recorded]);
      expect(await readdir(join(dataDir, 'tmp'))).toEqual([]);
      expect((await stat(join(dataDir, 'blobs', recorded!.slice(0, 2), recorded!))).size).toBe('recorded'.length);
    });

    it('with GridFS: orphan blobs and chunks of an interrupted write go at the next start', async () => {
      const dbName = freshDbName();
      databases.push(dbName);
      const config = mongoConfig(target!.uri, dbName);
      const first = await restart(config);
      const fileId = await uploadAs(first.url, 'recorded');
      await first.close();

      const client = await MongoClient.connect(target!.uri);
      try {
        const db = client.db(dbName);
        const store = new GridFsBlobStore(db);
        const orphan = await store.write(bytes('never recorded'));
        const filesColl = db.collection<{ _id: string; uploadDate: Date }>(`${BLOB_BUCKET}.files`);
        await filesColl.updateMany({}, { $set: { uploadDate: new Date(Date.now() - 2 * HOUR) } });
        // Chunks whose file document was never written: one old (a crash), one fresh (a write under way).
        const chunks = db.collection(`${BLOB_BUCKET}.chunks`);
        const oldId = ObjectId.createFromTime(Math.floor((Date.now() - 2 * HOUR) / 1000));
        await chunks.insertOne({ _id: oldId, files_id: 'x'.repeat(22), n: 0, data: Buffer.from('half') });
        await chunks.insertOne({ _id: new ObjectId(), files_id: 'y'.repeat(22), n: 0, data: Buffer.from('busy') });

        const second = await restart(config);
        const blobIds = (await filesColl.find().toArray()).map((doc) => doc._id);
        expect(blobIds).toHaveLength(1);
        expect(blobIds).not.toContain(orphan.key);
        expect((await chunks.distinct('files_id')).sort()).toEqual([blobIds[0], 'y'.repeat(22)].sort());
        const login = await fetch(`${second.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'root', password: 'root-password-long' }),
        });
        const { token } = (await login.json()) as { token: string };
        const content = await fetch(`${second.url}/api/file/${fileId}/content`, {
          headers: { authorization: `token ${token}` },
        });
        expect(await content.text()).toBe('recorded');
      } finally {
        await client.close();
      }
    });
  });
});
