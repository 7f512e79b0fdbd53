import { describe, expect, it } from 'vitest';
import { createCore, type InstanceLeases, type Ports } from '../../src/application/index.js';
import { MemoryInstanceLeases } from '../../src/adapters/memory/index.js';
import {
  ensureIndexes,
  MongoFileRepository,
  MongoInstanceLeases,
  MongoUploadSessionRepository,
  MongoUsageCounter,
} from '../../src/adapters/mongodb/index.js';
import { bytes } from '../support/core.js';
import { LEASE_MS, type TestInstance } from '../support/instances.js';
import { twoInstances } from '../support/crash.js';
import { getMongoUri, MONGO_SKIP_MESSAGE, useFreshDatabases } from '../support/mongo.js';
import { filesOnDisk } from '../support/wait.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

/** Where counters, records, sessions and leases live; users and bytes (the file store) stay as makeCore has them. */
type Backing = () => Promise<{ ports: Partial<Pick<Ports, 'usage' | 'files' | 'uploads'>>; leases: InstanceLeases }>;

/** A promise that never settles: the process "dies" there, so nothing after it (cleanup included) ever runs. */
const dead = () => new Promise<never>(() => {});

/** Ports whose `method` of `port` runs, then the process dies (`after`), or dies before it runs. */
function dyingIn(ports: Ports, port: 'files' | 'uploads' | 'usage', method: string, after: boolean, reached: () => void): Ports {
  const target = ports[port] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const wrapped = Object.assign(Object.create(target) as object, {
    [method]: async (...args: unknown[]) => {
      if (after) await target[method]!(...args);
      reached();
      return dead();
    },
  });
  return { ...ports, [port]: wrapped };
}

async function setUp(backing: Backing) {
  const { ports, a, b, alice, pass } = await twoInstances(backing, { blobs: 'fs' });
  const usage = async () => {
    const { files, storage } = await ports.usage.get(alice.userId);
    return { files, storage };
  };
  const create = (length: number) =>
    b.core.createUpload.execute({
      actor: alice.actor,
      length,
      folderId: null,
      name: null,
      filename: 'big.bin',
      mime: 'application/octet-stream',
      share: null,
    });
  /** Blobs on disk that no file and no unfinished upload names, and every file on disk. */
  const leftovers = async () => {
    const keys: string[] = [];
    for await (const entry of ports.blobs.list()) keys.push(entry.key);
    const named = await ports.files.referencedBlobKeys(keys);
    const parts = await ports.uploads.referencedPartKeys(keys);
    return keys.filter((key) => !named.has(key) && !parts.has(key));
  };
  return { ports, a, b, alice, pass, usage, create, leftovers };
}

/** Runs `work` on instance `a` with its ports wrapped so that it dies as `dying` says; resolves once it died. */
async function dieWhile(a: TestInstance, dying: (ports: Ports, reached: () => void) => Ports, work: (core: ReturnType<typeof createCore>) => Promise<unknown>) {
  let reached!: () => void;
  const there = new Promise<void>((resolve) => (reached = resolve));
  void work(createCore(dying(a.ports, reached))).catch(() => undefined);
  await there;
}

const data = (size: number, seed: number) => Uint8Array.from({ length: size }, (_, i) => (i * 31 + seed) % 251);

function blobIntentSuite(name: string, backing: Backing): void {
  describe(`a blob in place before its record, when its instance dies (${name}, file store)`, () => {
    it('an upload renamed but not recorded: its bytes and counts go once the lease ran out', async () => {
      const t = await setUp(backing);
      await dieWhile(
        t.a,
        (p, reached) => dyingIn(p, 'files', 'insert', false, reached),
        (core) =>
          core.uploadFile.execute({
            actor: t.alice.actor,
            folderId: null,
            name: null,
            filename: 'f.bin',
            mime: undefined,
            content: bytes(data(70_000, 1)),
          }),
      );
      expect(await t.leftovers()).toHaveLength(1);
      expect(await t.usage()).toEqual({ files: 1, storage: 70_000 });
      await t.pass(LEASE_MS, t.b);
      expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 1, released: 1, failed: 0 });
      expect(await t.leftovers()).toEqual([]);
      expect(await filesOnDisk(t.ports.blobs)).toEqual([]);
      expect(await t.usage()).toEqual({ files: 0, storage: 0 });
      expect((await t.b.core.reconcileUsage.execute({ actor: null, fix: false })).drifted).toEqual([]);
    });

    it('a resumable part written but not committed: it goes, and the upload resumes on the other instance', async () => {
      const t = await setUp(backing);
      const { id } = await t.create(100_000);
      await dieWhile(
        t.a,
        (p, reached) => dyingIn(p, 'uploads', 'append', false, reached),
        (core) => core.appendUpload.execute({ actor: t.alice.actor, id, offset: 0, content: bytes(data(60_000, 2)) }),
      );
      expect(await t.leftovers()).toHaveLength(1);
      await t.pass(LEASE_MS, t.b);
      expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ released: 1, failed: 0 });
      expect(await t.leftovers()).toEqual([]);
      expect(await t.usage()).toEqual({ files: 1, storage: 0 });
      const whole = data(100_000, 3);
      const done = await t.b.core.appendUpload.execute({ actor: t.alice.actor, id, offset: 0, content: bytes(whole) });
      expect(done.fileId).toBe(id);
      expect(await t.usage()).toEqual({ files: 1, storage: 100_000 });
      expect(await t.leftovers()).toEqual([]);
      expect(await t.ports.usage.holdsOf(t.alice.userId)).toEqual([]);
    });

    it('a resumable part committed before its bytes were handed to the upload: the sweep hands them on', async () => {
      const t = await setUp(backing);
      const { id } = await t.create(100_000);
      await dieWhile(
        t.a,
        (p, reached) => dyingIn(p, 'usage', 'moveHeld', false, reached),
        (core) => core.appendUpload.execute({ actor: t.alice.actor, id, offset: 0, content: bytes(data(60_000, 2)) }),
      );
      await t.pass(LEASE_MS, t.b);
      expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ kept: 1, released: 0, failed: 0 });
      expect(await t.usage()).toEqual({ files: 1, storage: 60_000 });
      expect(await t.leftovers()).toEqual([]);
      // The upload's hold covers the committed part, so it completes as if the append had finished.
      const rest = data(40_000, 4);
      const done = await t.b.core.appendUpload.execute({ actor: t.alice.actor, id, offset: 60_000, content: bytes(rest) });
      expect(done.fileId).toBe(id);
      expect(await t.usage()).toEqual({ files: 1, storage: 100_000 });
      expect(await t.ports.usage.holdsOf(t.alice.userId)).toEqual([]);
      expect((await t.b.core.reconcileUsage.execute({ actor: null, fix: false })).drifted).toEqual([]);
    });

    it('a resumable upload joined but not recorded: the joined bytes and the counts go', async () => {
      const t = await setUp(backing);
      const { id } = await t.create(100_000);
      await t.b.core.appendUpload.execute({ actor: t.alice.actor, id, offset: 0, content: bytes(data(60_000, 5)) });
      await dieWhile(
        t.a,
        (p, reached) => dyingIn(p, 'files', 'insert', false, reached),
        (core) =>
          core.appendUpload.execute({ actor: t.alice.actor, id, offset: 60_000, content: bytes(data(40_000, 6)) }),
      );
      expect(await t.ports.uploads.findById(id)).toBeNull();
      expect(await t.leftovers()).toHaveLength(1);
      await t.pass(LEASE_MS, t.b);
      expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ released: 1, failed: 0 });
      expect(await t.leftovers()).toEqual([]);
      expect(await filesOnDisk(t.ports.blobs)).toEqual([]);
      expect(await t.usage()).toEqual({ files: 0, storage: 0 });
      expect(await t.ports.usage.holdsOf(t.alice.userId)).toEqual([]);
    });
  });
}

blobIntentSuite('memory records', async () => ({ ports: {}, leases: new MemoryInstanceLeases() }));

describe.skipIf(!target)('on MongoDB', () => {
  const databases = useFreshDatabases(target!);
  blobIntentSuite('MongoDB records', async () => {
    const db = databases.fresh();
    await ensureIndexes(db);
    return {
      ports: { usage: new MongoUsageCounter(db), files: new MongoFileRepository(db), uploads: new MongoUploadSessionRepository(db) },
      leases: new MongoInstanceLeases(db),
    };
  });
});
