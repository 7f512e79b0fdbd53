import { describe, expect, it } from 'vitest';
import { createCore, type Core, type Ports } from '../../src/application/index.js';
import { STORAGE_BATCH } from '../../src/application/files/storage-meter.js';
import {
  COLLECTIONS,
  ensureIndexes,
  MongoFileRepository,
  MongoInstanceLeases,
  MongoUsageCounter,
} from '../../src/adapters/mongodb/index.js';
import { MemoryInstanceLeases } from '../../src/adapters/memory/index.js';
import { ZERO_USAGE, type Actor } from '../../src/domain/index.js';
import type { InstanceLeases } from '../../src/application/ports/index.js';
import { bytes, makeCore } from '../support/core.js';
import { instancesOn, LEASE_MS, type TestInstance } from '../support/instances.js';
import { twoInstances } from '../support/crash.js';
import { getMongoUri, MONGO_SKIP_MESSAGE, useFreshDatabases } from '../support/mongo.js';

const HOUR = 3_600_000;
const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

/** Where the counters, file records and leases live; the rest of the ports stay in memory. */
type Backing = () => Promise<{ ports: Partial<Pick<Ports, 'usage' | 'files'>>; leases: InstanceLeases }>;

/** A promise that never settles: the process "dies" there, so nothing after it (cleanup included) ever runs. */
const dead = () => new Promise<never>(() => {});

type Recovered = 'instances' | 'settled' | 'released' | 'kept' | 'finished' | 'abandoned' | 'failed';
const recovered = (counts: Partial<Record<Recovered, number>> = {}) => ({
  instances: 0,
  settled: 0,
  released: 0,
  kept: 0,
  finished: 0,
  abandoned: 0,
  failed: 0,
  ...counts,
});

const upload = (core: Core, actor: Actor, content: AsyncIterable<Uint8Array>) =>
  core.uploadFile.execute({ actor, folderId: null, name: null, filename: 'f.bin', mime: undefined, content });

/** Two instances over one database; instance `a` does the work that dies, `b` survives it. */
async function setUp(backing: Backing) {
  const { ports, clock, a, b, alice, pass } = await twoInstances(backing, { maxConcurrentUploads: 1 });
  const kept = await upload(b.core, alice.actor, bytes('kept bytes'));
  const keptUsage = { ...ZERO_USAGE, files: 1, storage: 'kept bytes'.length };
  expect(await ports.usage.get(alice.userId)).toEqual(keptUsage);
  /** Time passes; the instances still running renew their leases as they go, as their timers would. */
  return { ports, a, b, clock, pass, alice, kept, keptUsage };
}

/** Starts an upload on instance `a` with ports `crash` wrapped, and resolves once it reached the crash. */
async function uploadUntilCrash(
  a: TestInstance,
  actor: Actor,
  crash: (ports: Ports, reached: () => void) => Ports,
): Promise<void> {
  let reached!: () => void;
  const there = new Promise<void>((resolve) => (reached = resolve));
  const content = bytes(new Uint8Array(3000).fill(7), 1000);
  void upload(createCore(crash(a.ports, reached)), actor, content).catch(() => {});
  await there;
}

/** The user's upload slots are all free: with a bound of one, one can be opened. */
async function slotFree(ports: Ports, userId: string): Promise<boolean> {
  const probe = { id: 'probe', at: new Date(), by: 'probe' };
  const open = await ports.usage.openHold(userId, probe, 1);
  if (open) await ports.usage.releaseHold(userId, 'probe');
  await ports.usage.forgetWriters(userId, ['probe']);
  return open;
}

function crashHoldsSuite(name: string, backing: Backing): void {
  describe(`an instance that dies in the middle of an upload (${name})`, () => {
    it('before its record is written: another instance gives the counts and the slot back once its lease ran out', async () => {
      const { ports, a, b, pass, alice, kept, keptUsage } = await setUp(backing);
      await uploadUntilCrash(a, alice.actor, (p, reached) => ({
        ...p,
        files: Object.assign(Object.create(p.files) as Ports['files'], { insert: () => (reached(), dead()) }),
      }));
      // The dead upload's reservations are still counted and its slot taken: nothing could give them back.
      const held = { ...keptUsage, files: 2, storage: keptUsage.storage + 3000 };
      expect(await ports.usage.get(alice.userId)).toEqual(held);
      expect(await slotFree(ports, alice.userId)).toBe(false);

      // While its lease runs, the instance may be alive: nothing is touched.
      await pass(LEASE_MS - 1, b);
      expect(await b.core.sweepDeadInstances.execute({})).toEqual(recovered());
      await pass(1, b);
      expect(await b.core.sweepDeadInstances.execute({})).toEqual(recovered({ instances: 1, released: 1 }));
      expect(await ports.usage.get(alice.userId)).toEqual(keptUsage);
      expect(await slotFree(ports, alice.userId)).toBe(true);
      expect((await ports.files.listByOwner(alice.userId)).map((f) => f.id)).toEqual([kept.id]);
      // Its work is done: the counters no longer name it, and the next sweep finds nothing.
      expect(await ports.usage.writers()).not.toContain(a.keeper.id());
      expect(await b.core.sweepDeadInstances.execute({})).toEqual(recovered());
    });

    it('after its record is written: the sweep keeps the counts, which now belong to the file', async () => {
      const { ports, a, b, pass, alice, keptUsage } = await setUp(backing);
      await uploadUntilCrash(a, alice.actor, (p, reached) => ({
        ...p,
        usage: Object.assign(Object.create(p.usage) as Ports['usage'], { settleHold: () => (reached(), dead()) }),
      }));
      const stored = await ports.files.listByOwner(alice.userId);
      expect(stored).toHaveLength(2);
      const expected = { ...keptUsage, files: 2, storage: keptUsage.storage + 3000 };
      expect(await ports.usage.get(alice.userId)).toEqual(expected);

      await pass(LEASE_MS, b);
      expect(await b.core.sweepDeadInstances.execute({})).toEqual(recovered({ instances: 1, settled: 1 }));
      expect(await ports.usage.get(alice.userId)).toEqual(expected);
      expect(await slotFree(ports, alice.userId)).toBe(true);
      expect(await ports.usage.staleHolds(new Date(8.64e15))).toEqual([]);
    });

    it("never touches a live instance's upload, however long it stalls, nor does the sweep of old holds", async () => {
      const { ports, a, b, pass, alice, keptUsage } = await setUp(backing);
      let resume!: () => void;
      const paused = new Promise<void>((resolve) => (resume = resolve));
      let waiting!: () => void;
      const stalled = new Promise<void>((resolve) => (waiting = resolve));
      async function* slow(): AsyncIterable<Uint8Array> {
        yield new Uint8Array(STORAGE_BATCH).fill(1);
        yield new Uint8Array(10).fill(2);
        waiting();
        await paused;
        yield new Uint8Array(20).fill(3);
      }
      const result = upload(a.core, alice.actor, slow());
      await stalled;
      for (let i = 0; i < 5; i++) {
        await pass(HOUR, a, b);
        expect(await b.core.sweepDeadInstances.execute({})).toEqual(recovered());
        expect(await b.core.sweepStaleHolds.execute({ graceMs: HOUR })).toMatchObject({ stale: 0 });
      }
      resume();
      const file = await result;
      expect(file.size).toBe(String(STORAGE_BATCH + 30));
      expect(await ports.usage.get(alice.userId)).toEqual({
        ...keptUsage,
        files: 2,
        storage: keptUsage.storage + STORAGE_BATCH + 30,
      });
    });

    it('whose lease ran out while it stalled, but which was not dead: its upload fails and leaves nothing', async () => {
      const { ports, a, b, pass, alice, keptUsage } = await setUp(backing);
      let resume!: () => void;
      const paused = new Promise<void>((resolve) => (resume = resolve));
      let waiting!: () => void;
      const stalled = new Promise<void>((resolve) => (waiting = resolve));
      async function* slow(): AsyncIterable<Uint8Array> {
        yield new Uint8Array(STORAGE_BATCH).fill(1);
        yield new Uint8Array(10).fill(2);
        waiting();
        await paused;
        yield new Uint8Array(20).fill(3);
      }
      const result = upload(a.core, alice.actor, slow());
      await stalled;
      const lapsed = a.keeper.id();
      await pass(LEASE_MS, b);
      expect(await b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 1, released: 1 });
      // Its next renewal finds the lease gone: it goes on under a new id, and never takes the old one back.
      await a.keeper.renew();
      expect(a.keeper.id()).not.toBe(lapsed);
      resume();
      await expect(result).rejects.toThrow(/stalled/);
      expect(await ports.usage.get(alice.userId)).toEqual(keptUsage);
      expect(await ports.files.listByOwner(alice.userId)).toHaveLength(1);
      expect(await slotFree(ports, alice.userId)).toBe(true);
      expect(await b.core.sweepDeadInstances.execute({})).toMatchObject({ settled: 0, released: 0 });
    });
  });
}

crashHoldsSuite('memory', async () => ({ ports: {}, leases: new MemoryInstanceLeases() }));

describe.skipIf(!target)('on MongoDB', () => {
  const databases = useFreshDatabases(target!);

  crashHoldsSuite('MongoDB', async () => {
    const db = databases.fresh();
    await ensureIndexes(db);
    return {
      ports: { usage: new MongoUsageCounter(db), files: new MongoFileRepository(db) },
      leases: new MongoInstanceLeases(db),
    };
  });

  it('holds written before holds named an instance are swept by their age, as before', async () => {
    const db = databases.fresh();
    await ensureIndexes(db);
    const made = makeCore();
    const ports: Ports = { ...made.ports, usage: new MongoUsageCounter(db), files: new MongoFileRepository(db) };
    const core = createCore(ports);
    const at = made.clock.now();
    await db.collection(COLLECTIONS.usage).insertOne({
      _id: 'u1' as never,
      files: 2,
      storage: 30,
      holds: { recorded: { at, files: 1, storage: 10 }, lost: { at, files: 1, storage: 20 } },
    });
    await ports.files.insert({
      id: 'recorded',
      ownerId: 'u1',
      folderId: null,
      name: 'r.bin',
      mime: 'application/octet-stream',
      size: 10,
      blobKey: 'k'.repeat(32),
      uploaderTokenId: null,
      charset: null,
      createdAt: at,
      updatedAt: at,
    });
    expect(await core.sweepStaleHolds.execute({ graceMs: HOUR })).toMatchObject({ stale: 0 });
    expect(await core.sweepDeadInstances.execute({})).toEqual(recovered());
    made.clock.advance(HOUR + 1);
    expect(await core.sweepStaleHolds.execute({ graceMs: HOUR })).toEqual({
      stale: 2,
      settled: 1,
      released: 1,
      failed: 0,
    });
    expect(await ports.usage.get('u1')).toEqual({ ...ZERO_USAGE, files: 1, storage: 10 });
  });
});

describe('the sweep of gone instances, on the use case', () => {
  it('keeps going when one hold fails, and names the instance until all of its work is done', async () => {
    const { ports, clock } = makeCore();
    const leases = new MemoryInstanceLeases();
    const [a] = await instancesOn(ports, clock, 1, leases);
    const at = clock.now();
    await ports.usage.reserve('u1', 'files', 1, 10, { id: 'bad', at, by: 'gone-instance' });
    await ports.usage.reserve('u1', 'files', 1, 10, { id: 'good', at, by: 'gone-instance' });
    let failing = true;
    const usage = Object.assign(Object.create(ports.usage) as Ports['usage'], {
      releaseHold: (userId: string, holdId: string, when?: { by?: string }) =>
        holdId === 'bad' && failing
          ? Promise.reject(new Error('db down'))
          : ports.usage.releaseHold(userId, holdId, when),
    });
    const core = createCore({ ...a!.ports, usage });
    expect(await core.sweepDeadInstances.execute({})).toEqual(recovered({ instances: 1, released: 1, failed: 1 }));
    expect((await ports.usage.get('u1')).files).toBe(1);
    expect(await ports.usage.writers()).toEqual(['gone-instance']);
    failing = false;
    expect(await core.sweepDeadInstances.execute({})).toEqual(recovered({ instances: 1, released: 1 }));
    expect((await ports.usage.get('u1')).files).toBe(0);
    expect(await ports.usage.writers()).toEqual([]);
  });
});
