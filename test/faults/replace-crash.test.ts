import { describe, expect, it } from 'vitest';
import { createCore, type InstanceLeases, type Ports } from '../../src/application/index.js';
import { MemoryInstanceLeases } from '../../src/adapters/memory/index.js';
import { bytes } from '../support/core.js';
import { LEASE_MS } from '../support/instances.js';
import { getMongoUri, MONGO_SKIP_MESSAGE, useFreshDatabases } from '../support/mongo.js';
import { dyingAt, mongoRecords, stallingAt, type Cut as CrashCut, type RecordPorts, twoInstances } from '../support/crash.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

/**
 * New bytes for a file (ReplaceFileContent: a WebDAV PUT onto an existing file) cut by the death of its instance at
 * each step between two writes, on two instances over one set of repositories: once the dying instance's lease ran
 * out, one sweep of the other leaves the counters equal to what is stored, no hold, no upload slot taken, and no blob
 * that no record names; the file has its new bytes exactly when the swap landed.
 */

type Backing = () => Promise<{ ports: Partial<RecordPorts>; leases: InstanceLeases }>;

interface Cut extends CrashCut {
  name: string;
  landed: boolean;
  outcome: 'released' | 'finished';
}

const OLD = 'the old bytes of the file, longer than the new ones';
const cuts: Cut[] = [
  { name: 'after its bytes were written, before the swap', port: 'blobs', method: 'write', landed: false, outcome: 'released' },
  { name: 'after the swap, before its hold was fixed', port: 'files', method: 'replaceContent', landed: true, outcome: 'finished' },
  { name: 'after its hold was fixed, before the old bytes went', port: 'usage', method: 'fixHeld', landed: true, outcome: 'finished' },
  { name: 'after the old bytes went, before the hold was released', port: 'blobs', method: 'delete', landed: true, outcome: 'finished' },
];

async function setUp(backing: Backing) {
  const { ports, a, b, alice, pass } = await twoInstances(backing);
  const file = await b.core.uploadFile.execute({ actor: alice.actor, folderId: null, name: null, filename: 'a.txt', mime: undefined, content: bytes(OLD) });
  return { ports, a, b, alice, file, pass };
}

async function blobKeys(ports: Ports): Promise<string[]> {
  const keys: string[] = [];
  for await (const entry of ports.blobs.list()) keys.push(entry.key);
  return keys.sort();
}

async function text(ports: Ports, key: string): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of await ports.blobs.read(key)) chunks.push(chunk);
  return Buffer.concat(chunks).toString();
}

function replaceCrashSuite(name: string, backing: Backing): void {
  describe(`new bytes for a file cut by the death of its instance (${name}, two instances)`, () => {
    for (const cut of cuts) {
      for (const grows of [false, true]) {
        const content = grows ? `${OLD}, and then a good deal more of them` : 'short';
        it(`${cut.name}, ${grows ? 'growing' : 'shrinking'} it: left alone while the instance may live, then ${cut.outcome} by one sweep`, async () => {
          const t = await setUp(backing);
          const before = await t.ports.usage.get(t.alice.userId);
          let reached!: () => void;
          const there = new Promise<'cut'>((resolve) => (reached = () => resolve('cut')));
          const core = createCore(dyingAt(t.a.ports, cut, reached));
          const ended = core.replaceFileContent.execute({ actor: t.alice.actor, id: t.file.id, mime: undefined, content: bytes(content) }).then(
            () => 'ended' as const,
            () => 'ended' as const,
          );
          expect(await Promise.race([there, ended]), 'the replace must reach its cut').toBe('cut');
          const holds = await t.ports.usage.holdsOf(t.alice.userId);
          expect(holds.map((h) => [h.by, h.task?.kind])).toEqual([[t.a.keeper.id(), 'replace']]);

          // While the dying instance may live, its work is left as it is.
          await t.pass(LEASE_MS - 1, t.b);
          expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 0, released: 0, finished: 0 });
          expect(await t.ports.usage.holdsOf(t.alice.userId)).toEqual(holds);

          await t.pass(1, t.b);
          expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({
            instances: 1,
            failed: 0,
            released: cut.outcome === 'released' ? 1 : 0,
            finished: cut.outcome === 'finished' ? 1 : 0,
          });
          const file = (await t.ports.files.findById(t.file.id))!;
          expect(file.size).toBe((cut.landed ? content : OLD).length);
          expect(await text(t.ports, file.blobKey)).toBe(cut.landed ? content : OLD);
          expect(await t.ports.usage.get(t.alice.userId)).toEqual({ ...before, storage: file.size });
          expect(await t.ports.usage.holdsOf(t.alice.userId)).toEqual([]);
          expect(await blobKeys(t.ports)).toEqual([file.blobKey]);
          expect((await t.b.core.reconcileUsage.execute({ actor: null, fix: false })).drifted).toEqual([]);
          // The upload slot came back: as many uploads at once as the maximum allows.
          const max = t.ports.settings.maxConcurrentUploads;
          for (let i = 0; i < max; i++) {
            expect(await t.ports.usage.openHold(t.alice.userId, { id: `slot-${i}`, at: new Date(), by: t.b.keeper.id() }, max)).toBe(true);
          }
        });
      }
    }

    it('a replace that lives, its instance stalled past its lease before the swap: the sweep gives its bytes back, and the instance, back, swaps the old bytes back', async () => {
      const t = await setUp(backing);
      const stall = stallingAt(t.a.ports, { port: 'blobs', method: 'write' }, 'after');
      const replace = createCore(stall.ports).replaceFileContent.execute({ actor: t.alice.actor, id: t.file.id, mime: undefined, content: bytes('new') });
      await stall.reached;
      await t.pass(LEASE_MS, t.b);
      expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 1, released: 1 });
      stall.resume();
      await expect(replace).rejects.toThrow(/outlived/);
      const file = (await t.ports.files.findById(t.file.id))!;
      expect(await text(t.ports, file.blobKey)).toBe(OLD);
      expect(file.size).toBe(OLD.length);
      expect((await t.ports.usage.get(t.alice.userId)).storage).toBe(OLD.length);
      expect(await blobKeys(t.ports)).toEqual([file.blobKey]);
    });
  });
}

replaceCrashSuite('memory', async () => ({ ports: {}, leases: new MemoryInstanceLeases() }));

describe.skipIf(!target)('on MongoDB', () => {
  const databases = useFreshDatabases(target!);
  replaceCrashSuite('MongoDB', () => mongoRecords(databases.fresh()));
});
