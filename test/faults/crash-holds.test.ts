import { describe, expect, it } from 'vitest';
import { createCore, type Core, type Ports } from '../../src/application/index.js';
import { STORAGE_BATCH } from '../../src/application/files/storage-meter.js';
import { ensureIndexes, MongoFileRepository, MongoUsageCounter } from '../../src/adapters/mongodb/index.js';
import { ZERO_USAGE, type Actor } from '../../src/domain/index.js';
import { bytes, makeCore, signUp } from '../support/core.js';
import { getMongoUri, MONGO_SKIP_MESSAGE, useFreshDatabases } from '../support/mongo.js';

const HOUR = 3_600_000;
const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

/** Where the counters and file records live; the rest of the ports stay in memory. */
type Backing = () => Promise<Partial<Pick<Ports, 'usage' | 'files'>>>;

/** A promise that never settles: the process "dies" there, so nothing after it (cleanup included) ever runs. */
const dead = () => new Promise<never>(() => {});

/** A hold sweep's report: zeros but for what is given. */
const swept = (counts: Partial<Record<'stale' | 'settled' | 'released' | 'failed', number>> = {}) => ({
  stale: 0,
  settled: 0,
  released: 0,
  failed: 0,
  ...counts,
});
const sweep = (core: Core) => core.sweepStaleHolds.execute({ graceMs: HOUR });

const upload = (core: Core, actor: Actor, content: AsyncIterable<Uint8Array>) =>
  core.uploadFile.execute({ actor, folderId: null, name: null, filename: 'f.bin', mime: undefined, content });

async function setUp(backing: Backing) {
  const made = makeCore();
  const ports: Ports = { ...made.ports, ...(await backing()) };
  const core = createCore(ports);
  const alice = await signUp({ core, ports }, 'alice');
  const kept = await upload(core, alice.actor, bytes('kept bytes'));
  const keptUsage = { ...ZERO_USAGE, files: 1, storage: 'kept bytes'.length };
  expect(await ports.usage.get(alice.userId)).toEqual(keptUsage);
  return { ports, core, clock: made.clock, alice, kept, keptUsage };
}

/** Starts an upload on a core whose ports `crash` wrapped, and resolves once it reached the crash. */
async function uploadUntilCrash(
  ports: Ports,
  actor: Actor,
  crash: (ports: Ports, reached: () => void) => Ports,
): Promise<void> {
  let reached!: () => void;
  const there = new Promise<void>((resolve) => (reached = resolve));
  const content = bytes(new Uint8Array(3000).fill(7), 1000);
  void upload(createCore(crash(ports, reached)), actor, content).catch(() => {});
  await there;
}

function crashHoldsSuite(name: string, backing: Backing): void {
  describe(`a crash in the middle of an upload (${name})`, () => {
    it('before its record is written: a later sweep gives the counts back once the grace period passed', async () => {
      const { ports, core, clock, alice, kept, keptUsage } = await setUp(backing);
      await uploadUntilCrash(ports, alice.actor, (p, reached) => ({
        ...p,
        files: Object.assign(Object.create(p.files) as Ports['files'], { insert: () => (reached(), dead()) }),
      }));
      // The dead upload's reservations are still counted: nothing could give them back.
      const held = { ...keptUsage, files: 2, storage: keptUsage.storage + 3000 };
      expect(await ports.usage.get(alice.userId)).toEqual(held);

      // "Restart": the original core over the same storage. Within the grace period the hold may be a live upload.
      expect(await sweep(core)).toEqual(swept());
      clock.advance(HOUR + 1);
      expect(await sweep(core)).toEqual(swept({ stale: 1, released: 1 }));
      expect(await ports.usage.get(alice.userId)).toEqual(keptUsage);
      expect((await ports.files.listByOwner(alice.userId)).map((f) => f.id)).toEqual([kept.id]);
      expect(await sweep(core)).toEqual(swept());
    });

    it('after its record is written: the sweep keeps the counts, which now belong to the file', async () => {
      const { ports, core, clock, alice, keptUsage } = await setUp(backing);
      await uploadUntilCrash(ports, alice.actor, (p, reached) => ({
        ...p,
        usage: Object.assign(Object.create(p.usage) as Ports['usage'], { settleHold: () => (reached(), dead()) }),
      }));
      const stored = await ports.files.listByOwner(alice.userId);
      expect(stored).toHaveLength(2);
      const expected = { ...keptUsage, files: 2, storage: keptUsage.storage + 3000 };
      expect(await ports.usage.get(alice.userId)).toEqual(expected);

      clock.advance(HOUR + 1);
      expect(await sweep(core)).toEqual(swept({ stale: 1, settled: 1 }));
      expect(await ports.usage.get(alice.userId)).toEqual(expected);
      expect(await ports.usage.staleHolds(clock.now())).toEqual([]);
    });

    it('with no bytes for longer than the grace period: taken for dead, it fails and leaves nothing', async () => {
      const { ports, core, clock, alice, keptUsage } = await setUp(backing);
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
      const result = upload(core, alice.actor, slow());
      await stalled;
      clock.advance(HOUR + 1);
      expect(await sweep(core)).toMatchObject({ stale: 1, released: 1 });
      resume();
      await expect(result).rejects.toThrow(/stalled/);
      expect(await ports.usage.get(alice.userId)).toEqual(keptUsage);
      expect(await ports.files.listByOwner(alice.userId)).toHaveLength(1);
      expect(await ports.usage.staleHolds(new Date(clock.now().getTime() + HOUR))).toEqual([]);
    });

    it('keeps a completed upload and one still streaming untouched', async () => {
      const { ports, core, clock, alice, keptUsage } = await setUp(backing);
      let resume!: () => void;
      const paused = new Promise<void>((resolve) => (resume = resolve));
      async function* streaming(): AsyncIterable<Uint8Array> {
        yield new Uint8Array(STORAGE_BATCH).fill(1);
        yield new Uint8Array(1).fill(1);
        await paused;
      }
      const result = upload(core, alice.actor, streaming());
      await new Promise((r) => setTimeout(r, 20));
      clock.advance(HOUR / 2);
      expect(await sweep(core)).toMatchObject({ stale: 0 });
      resume();
      const file = await result;
      expect(file.size).toBe(String(STORAGE_BATCH + 1));
      expect(await ports.usage.get(alice.userId)).toEqual({
        ...keptUsage,
        files: 2,
        storage: keptUsage.storage + STORAGE_BATCH + 1,
      });
      clock.advance(2 * HOUR);
      expect(await sweep(core)).toMatchObject({ stale: 0 });
    });
  });
}

crashHoldsSuite('memory', async () => ({}));

describe.skipIf(!target)('on MongoDB', () => {
  const databases = useFreshDatabases(target!);

  crashHoldsSuite('MongoDB', async () => {
    const db = databases.fresh();
    await ensureIndexes(db);
    return { usage: new MongoUsageCounter(db), files: new MongoFileRepository(db) };
  });
});

describe('the hold sweep, on the use case', () => {
  it('keeps going when one hold fails, and refuses a negative grace period as a bug', async () => {
    const { ports, clock } = makeCore();
    const at = clock.now();
    await ports.usage.reserve('u1', 'files', 1, 10, { id: 'bad', at });
    await ports.usage.reserve('u1', 'files', 1, 10, { id: 'good', at });
    const usage = Object.assign(Object.create(ports.usage) as Ports['usage'], {
      releaseHold: (userId: string, holdId: string) =>
        holdId === 'bad' ? Promise.reject(new Error('db down')) : ports.usage.releaseHold(userId, holdId),
    });
    const core = createCore({ ...ports, usage });
    clock.advance(HOUR + 1);
    expect(await sweep(core)).toEqual(swept({ stale: 2, released: 1, failed: 1 }));
    expect((await ports.usage.get('u1')).files).toBe(1);
    await expect(core.sweepStaleHolds.execute({ graceMs: -1 })).rejects.toThrow(RangeError);
  });
});
