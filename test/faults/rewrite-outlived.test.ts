import { describe, expect, it } from 'vitest';
import { createCore, type InstanceLeases } from '../../src/application/index.js';
import { MemoryInstanceLeases } from '../../src/adapters/memory/index.js';
import { LEASE_MS, passTime } from '../support/instances.js';
import { getMongoUri, MONGO_SKIP_MESSAGE, useFreshDatabases } from '../support/mongo.js';
import { mongoRecords, stallingAt, type RecordPorts, twoInstances } from '../support/crash.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

/**
 * A paste rewrite whose instance stalled past its lease (so the other instance's sweep ended its hold) and then went
 * on: whichever side of its write the stall fell, the paste and the counters agree once it ends.
 */

type Backing = () => Promise<{ ports: Partial<RecordPorts>; leases: InstanceLeases }>;

const OLD = 'the paste as it was, of middling length';

async function setUp(backing: Backing) {
  const { ports, clock, a, b, alice } = await twoInstances(backing);
  const paste = await b.core.createPaste.execute({ actor: alice.actor, name: 'notes', content: OLD });
  return { ports, clock, a, b, alice, paste };
}

function rewriteOutlivedSuite(name: string, backing: Backing): void {
  describe(`a paste rewrite whose instance stalled past its lease (${name}, two instances)`, () => {
    for (const grows of [true, false]) {
      const content = grows ? `${OLD}, and a good deal longer now than before` : 'short';
      for (const when of ['before', 'after'] as const) {
        const landed = when === 'after';
        it(`${grows ? 'growing' : 'shrinking'} it, stalled ${when} its write: ${landed ? 'kept, as the sweep counted it' : 'the paste goes back to what the sweep counted'}`, async () => {
          const t = await setUp(backing);
          const stall = stallingAt(t.a.ports, { port: 'pastes', method: 'update' }, when);
          const rewrite = createCore(stall.ports).updatePaste.execute({ actor: t.alice.actor, id: t.paste.id, content });
          const settled = rewrite.then(
            () => 'answered' as const,
            (err: unknown) => (err instanceof Error ? err.message : String(err)),
          );
          await stall.reached;
          await passTime(t.clock, LEASE_MS, t.b);
          expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 1, failed: 0 });
          stall.resume();
          const outcome = await settled;
          if (landed) expect(outcome).toBe('answered');
          else expect(outcome).toMatch(/outlived/);
          const paste = (await t.ports.pastes.findById(t.paste.id))!;
          expect(paste.content).toBe(landed ? content : OLD);
          expect((await t.ports.usage.get(t.alice.userId)).storage).toBe(paste.size);
          expect(await t.ports.usage.holdsOf(t.alice.userId)).toEqual([]);
          expect((await t.b.core.reconcileUsage.execute({ actor: null, fix: false })).drifted).toEqual([]);
        });
      }
    }
  });
}

rewriteOutlivedSuite('memory', async () => ({ ports: {}, leases: new MemoryInstanceLeases() }));

describe.skipIf(!target)('on MongoDB', () => {
  const databases = useFreshDatabases(target!);
  rewriteOutlivedSuite('MongoDB', () => mongoRecords(databases.fresh()));
});
