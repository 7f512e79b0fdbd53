import { describe, expect, it } from 'vitest';
import { createCore, type Core, type InstanceLeases, type Ports } from '../../src/application/index.js';
import { MemoryInstanceLeases } from '../../src/adapters/memory/index.js';
import type { Actor, StoredFile } from '../../src/domain/index.js';
import { bytes } from '../support/core.js';
import { LEASE_MS } from '../support/instances.js';
import { getMongoUri, MONGO_SKIP_MESSAGE, useFreshDatabases } from '../support/mongo.js';
import { dyingAt, mongoRecords, stallingAt, twoInstances } from '../support/crash.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

type Backed = Pick<Ports, 'usage' | 'files' | 'folders' | 'pastes' | 'shares' | 'collections' | 'tokens' | 'callers' | 'users' | 'requests'>;
/** Where the records, the counters and the leases live; bytes stay in memory. */
type Backing = () => Promise<{ ports: Partial<Backed>; leases: InstanceLeases }>;

type PortName = keyof Backed;

/** Right after the `nth` call of a port method completed (its write reached the database), the process is gone. */
interface Cut {
  port: PortName;
  method: string;
  nth?: number;
}

/** What the user has when the cut operation starts: one of each, made on the instance that lives. */
interface Made {
  folder: string;
  paste: string;
  collection: string;
  file: string;
  fileShare: string;
  token: string;
  request: string;
}

/**
 * One operation cut by its instance's death. `record` finds the record it makes or deletes, `made`: whether it exists
 * once the sweep finished or undid the operation.
 */
interface Case {
  name: string;
  cut: Cut;
  run(core: Core, actor: Actor, made: Made): Promise<unknown>;
  /** Whether the record the operation makes (or deletes) is there after the sweep, and how to tell. */
  expect: 'created' | 'not created' | 'deleted';
  find(ports: Ports, userId: string, made: Made): Promise<number>;
}

const count = {
  folders: (p: Ports, u: string) => p.folders.listByOwner(u).then((l) => l.filter((f) => f.name === 'new').length),
  pastes: (p: Ports, u: string) => p.pastes.listByOwner(u).then((l) => l.filter((x) => x.name === 'new').length),
  collections: (p: Ports, u: string) => p.collections.listByOwner(u).then((l) => l.filter((x) => x.name === 'new').length),
  tokens: (p: Ports, u: string) => p.tokens.listByUser(u, 'uploader').then((l) => l.filter((x) => x.name === 'new').length),
};

const creates: Case[] = [
  {
    name: 'a folder create, after its count, before its record',
    cut: { port: 'usage', method: 'reserve' },
    run: (core, actor, made) => core.createFolder.execute({ actor, name: 'new', parentId: made.folder }),
    expect: 'not created',
    find: count.folders,
  },
  {
    name: 'a folder create, after its record, before its hold was settled',
    cut: { port: 'folders', method: 'insert' },
    run: (core, actor, made) => core.createFolder.execute({ actor, name: 'new', parentId: made.folder }),
    expect: 'created',
    find: count.folders,
  },
  {
    name: 'a paste create, after its count, before its bytes were counted',
    cut: { port: 'usage', method: 'reserve' },
    run: (core, actor) => core.createPaste.execute({ actor, name: 'new', content: 'new paste text' }),
    expect: 'not created',
    find: count.pastes,
  },
  {
    name: 'a paste create, after its bytes were counted, before its record',
    cut: { port: 'usage', method: 'reserve', nth: 2 },
    run: (core, actor) => core.createPaste.execute({ actor, name: 'new', content: 'new paste text' }),
    expect: 'not created',
    find: count.pastes,
  },
  {
    name: 'a paste create with a share, after its record, before its share',
    cut: { port: 'pastes', method: 'insert' },
    run: (core, actor) => core.createPaste.execute({ actor, name: 'new', content: 'new paste text', share: {} }),
    expect: 'created',
    find: count.pastes,
  },
  {
    name: 'a share create, after its count, before its record',
    cut: { port: 'usage', method: 'reserve' },
    run: (core, actor, made) => core.createShare.execute({ actor, type: 'folder', id: made.folder }),
    expect: 'not created',
    find: (p, u, made) => p.shares.findByItem('folder', made.folder).then((s) => (s?.ownerId === u ? 1 : 0)),
  },
  {
    name: 'a share create, after its record, before its hold was settled',
    cut: { port: 'shares', method: 'insert' },
    run: (core, actor, made) => core.createShare.execute({ actor, type: 'folder', id: made.folder }),
    expect: 'created',
    find: (p, u, made) => p.shares.findByItem('folder', made.folder).then((s) => (s?.ownerId === u ? 1 : 0)),
  },
  {
    name: 'a collection create, after its count, before its record',
    cut: { port: 'usage', method: 'reserve' },
    run: (core, actor) => core.createCollection.execute({ actor, name: 'new' }),
    expect: 'not created',
    find: count.collections,
  },
  {
    name: 'a collection create, after its record, before its hold was settled',
    cut: { port: 'collections', method: 'insert' },
    run: (core, actor) => core.createCollection.execute({ actor, name: 'new' }),
    expect: 'created',
    find: count.collections,
  },
  {
    name: 'a token create, after its count, before its record',
    cut: { port: 'usage', method: 'reserve' },
    run: (core, actor) => core.createApiToken.execute({ actor, name: 'new' }),
    expect: 'not created',
    find: count.tokens,
  },
  {
    name: 'a token create, after its record, before its hold was settled',
    cut: { port: 'tokens', method: 'insert' },
    run: (core, actor) => core.createApiToken.execute({ actor, name: 'new' }),
    expect: 'created',
    find: count.tokens,
  },
  {
    name: 'a file request create, after its count, before its record',
    cut: { port: 'usage', method: 'reserve' },
    run: (core, actor, made) => core.createRequest.execute({ actor, name: 'new', folderId: made.folder }),
    expect: 'not created',
    find: (p, u) => p.requests.listByOwner(u).then((all) => all.filter((r) => r.name === 'new').length),
  },
  {
    name: 'a file request create, after its record, before its hold was settled',
    cut: { port: 'requests', method: 'insert' },
    run: (core, actor, made) => core.createRequest.execute({ actor, name: 'new', folderId: made.folder }),
    expect: 'created',
    find: (p, u) => p.requests.listByOwner(u).then((all) => all.filter((r) => r.name === 'new').length),
  },
];

const pasteThere = (p: Ports, _u: string, made: Made) => p.pastes.findById(made.paste).then((x) => (x ? 1 : 0));
const collectionThere = (p: Ports, _u: string, made: Made) => p.collections.findById(made.collection).then((x) => (x ? 1 : 0));
const shareThere = (p: Ports, _u: string, made: Made) => p.shares.findById(made.fileShare).then((x) => (x ? 1 : 0));
const tokenThere = (p: Ports, _u: string, made: Made) => p.tokens.findById(made.token).then((x) => (x ? 1 : 0));
const requestThere = (p: Ports, _u: string, made: Made) => p.requests.findById(made.request).then((x) => (x ? 1 : 0));

const deletes: Case[] = [
  ...(
    [
      ['a paste delete', 'pastes', pasteThere, (c, a, m) => c.deletePaste.execute({ actor: a, id: m.paste })],
      ['a collection delete', 'collections', collectionThere, (c, a, m) => c.deleteCollection.execute({ actor: a, id: m.collection })],
      ['a share delete', 'shares', shareThere, (c, a, m) => c.deleteShare.execute({ actor: a, id: m.fileShare })],
      ['a token delete', 'tokens', tokenThere, (c, a, m) => c.deleteApiToken.execute({ actor: a, id: m.token })],
      ['a file request delete', 'requests', requestThere, (c, a, m) => c.deleteRequest.execute({ actor: a, id: m.request })],
    ] as const satisfies readonly [string, PortName, Case['find'], Case['run']][]
  ).flatMap(([name, port, find, run]): Case[] => [
    { name: `${name}, after its intent, before its record went`, cut: { port: 'usage', method: 'beginDrop' }, run, find, expect: 'deleted' },
    port === 'shares'
      ? { name: `${name}, after its record went, before its counts`, cut: { port, method: 'deleteClaimed' }, run, find, expect: 'deleted' }
      : { name: `${name}, after its record went, before its counts`, cut: { port, method: 'delete' }, run, find, expect: 'deleted' },
  ]),
  ...(
    [
      ['a paste delete', 'claimByItems', (c, a, m) => c.deletePaste.execute({ actor: a, id: m.paste }), pasteThere],
      ['a collection delete', 'claimByItems', (c, a, m) => c.deleteCollection.execute({ actor: a, id: m.collection }), collectionThere],
      ['a share delete', 'claim', (c, a, m) => c.deleteShare.execute({ actor: a, id: m.fileShare }), shareThere],
    ] as const satisfies readonly [string, string, Case['run'], Case['find']][]
  ).flatMap(([name, claim, run, find]): Case[] => [
    { name: `${name}, after its share was claimed, before its count was fixed`, cut: { port: 'shares', method: claim }, run, find, expect: 'deleted' },
    { name: `${name}, after its share’s count was fixed, before it went`, cut: { port: 'usage', method: 'fixHeld' }, run, find, expect: 'deleted' },
  ]),
  {
    name: 'a paste delete, after its share went, before its counts',
    cut: { port: 'shares', method: 'deleteClaimed' },
    run: (c, a, m) => c.deletePaste.execute({ actor: a, id: m.paste }),
    find: pasteThere,
    expect: 'deleted',
  },
  {
    name: 'a collection delete, after its share went, before its counts',
    cut: { port: 'shares', method: 'deleteClaimed' },
    run: (c, a, m) => c.deleteCollection.execute({ actor: a, id: m.collection }),
    find: collectionThere,
    expect: 'deleted',
  },
];

async function populate(core: Core, actor: Actor): Promise<Made> {
  const folder = await core.createFolder.execute({ actor, name: 'docs', parentId: null });
  const paste = await core.createPaste.execute({ actor, name: 'notes', content: 'some paste text', share: {} });
  const collection = await core.createCollection.execute({ actor, name: 'picked' });
  const file = await core.uploadFile.execute({
    actor,
    folderId: folder.id,
    name: null,
    filename: 'a.txt',
    mime: undefined,
    content: bytes('file bytes'),
  });
  await core.addToCollection.execute({ actor, id: collection.id, fileId: file.id });
  await core.createShare.execute({ actor, type: 'collection', id: collection.id });
  const fileShare = await core.createShare.execute({ actor, type: 'file', id: file.id });
  const token = await core.createApiToken.execute({ actor, name: 'kept' });
  const request = await core.createRequest.execute({ actor, name: 'inbox', folderId: folder.id });
  return {
    folder: folder.id,
    paste: paste.id,
    collection: collection.id,
    file: file.id,
    fileShare: fileShare.id,
    token: token.id,
    request: request.id,
  };
}

/** The counters as the records say they should be, and what the counters say. */
async function audit(ports: Ports, userId: string) {
  const files = await ports.files.listByOwner(userId);
  const pastes = await ports.pastes.listByOwner(userId);
  const expected = {
    files: files.length,
    storage: files.reduce((sum, f) => sum + f.size, 0) + pastes.reduce((sum, p) => sum + p.size, 0),
    folders: (await ports.folders.listByOwner(userId)).length,
    pastes: pastes.length,
    shares: (await ports.shares.listByOwner(userId)).length,
    collections: (await ports.collections.listByOwner(userId)).length,
    tokens: (await ports.tokens.listByUser(userId, 'uploader')).length,
    requests: (await ports.requests.listByOwner(userId)).length,
  };
  return { expected, counted: await ports.usage.get(userId) };
}

async function setUp(backing: Backing) {
  const { ports, a, b, alice, pass } = await twoInstances(backing);
  const items = await populate(b.core, alice.actor);
  return { ports, a, b, alice, items, pass };
}

/** Runs the case on instance `a`, which dies at the cut; fails if the operation ends without reaching it. */
async function runUntilCut(t: Awaited<ReturnType<typeof setUp>>, c: Case): Promise<void> {
  let reached!: () => void;
  const there = new Promise<'cut'>((resolve) => (reached = () => resolve('cut')));
  const ended = c.run(createCore(dyingAt(t.a.ports, c.cut, reached)), t.alice.actor, t.items).then(
    () => 'ended' as const,
    () => 'ended' as const,
  );
  expect(await Promise.race([there, ended]), 'the operation must reach its cut').toBe('cut');
}

async function expectExact(t: Awaited<ReturnType<typeof setUp>>): Promise<void> {
  const { expected, counted } = await audit(t.ports, t.alice.userId);
  expect(counted).toEqual(expected);
  expect(await t.ports.usage.holdsOf(t.alice.userId)).toEqual([]);
  expect((await t.b.core.reconcileUsage.execute({ actor: null, fix: false })).drifted).toEqual([]);
}

function recordCrashSuite(name: string, backing: Backing): void {
  describe(`a small create or delete cut by the death of its instance (${name}, two instances)`, () => {
    for (const c of [...creates, ...deletes]) {
      it(`${c.name}: left alone while the instance may live, then ${c.expect === 'created' ? 'settled' : c.expect === 'deleted' ? 'finished' : 'given back'} by one sweep once its lease ran out`, async () => {
        const t = await setUp(backing);
        const before = await t.ports.usage.get(t.alice.userId);
        await runUntilCut(t, c);
        const cutAt = await t.ports.usage.get(t.alice.userId);
        const holds = await t.ports.usage.holdsOf(t.alice.userId);
        expect(holds.map((h) => h.by)).toEqual([t.a.keeper.id()]);

        // The dying instance's lease has not run out: its unfinished work is not touched, whatever the sweep.
        await t.pass(LEASE_MS - 1, t.b);
        expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 0, settled: 0, released: 0, finished: 0 });
        expect(await t.ports.usage.holdsOf(t.alice.userId)).toEqual(holds);
        expect(await t.ports.usage.get(t.alice.userId)).toEqual(cutAt);

        await t.pass(1, t.b);
        const report = await t.b.core.sweepDeadInstances.execute({});
        expect(report).toMatchObject({
          instances: 1,
          failed: 0,
          settled: c.expect === 'created' ? 1 : 0,
          released: c.expect === 'not created' ? 1 : 0,
          finished: c.expect === 'deleted' ? 1 : 0,
        });
        await expectExact(t);
        const found = await c.find(t.ports, t.alice.userId, t.items);
        expect(found).toBe(c.expect === 'created' ? 1 : 0);
        if (c.expect === 'not created') expect(await t.ports.usage.get(t.alice.userId)).toEqual(before);
        expect(await t.ports.usage.writers()).not.toContain(t.a.keeper.id());
      });
    }

    const rewrites = [
      { grows: true, cut: { port: 'usage', method: 'reserve' }, landed: false, outcome: 'released' },
      { grows: true, cut: { port: 'pastes', method: 'update' }, landed: true, outcome: 'settled' },
      { grows: false, cut: { port: 'usage', method: 'beginTask' }, landed: false, outcome: 'settled' },
      { grows: false, cut: { port: 'pastes', method: 'update' }, landed: true, outcome: 'released' },
    ] as const;
    const rewriteCase = (r: (typeof rewrites)[number]): Case => ({
      name: `a paste rewrite that ${r.grows ? 'grows' : 'shrinks'} it, cut ${r.landed ? 'after its write' : 'before its write'}`,
      cut: r.cut,
      run: (core, actor, made) =>
        core.updatePaste.execute({ actor, id: made.paste, content: r.grows ? 'a much longer paste text than before' : 'short' }),
      expect: 'created',
      find: pasteThere,
    });
    for (const r of rewrites) {
      const c = rewriteCase(r);
      it(`${c.name}: left alone while the instance may live, then ${r.outcome} by one sweep once its lease ran out`, async () => {
        const t = await setUp(backing);
        await runUntilCut(t, c);
        const cutAt = await t.ports.usage.get(t.alice.userId);
        const holds = await t.ports.usage.holdsOf(t.alice.userId);
        expect(holds.map((h) => [h.by, h.task?.kind])).toEqual([[t.a.keeper.id(), 'rewrite']]);
        const content = (await t.ports.pastes.findById(t.items.paste))!.content;
        expect(content === 'some paste text').toBe(!r.landed);

        await t.pass(LEASE_MS - 1, t.b);
        expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 0, settled: 0, released: 0 });
        expect(await t.ports.usage.holdsOf(t.alice.userId)).toEqual(holds);
        expect(await t.ports.usage.get(t.alice.userId)).toEqual(cutAt);

        await t.pass(1, t.b);
        expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({
          instances: 1,
          failed: 0,
          settled: r.outcome === 'settled' ? 1 : 0,
          released: r.outcome === 'released' ? 1 : 0,
        });
        await expectExact(t);
        expect((await t.ports.pastes.findById(t.items.paste))!.content).toBe(content);
      });
    }

    it('a paste rewrite cut after its write, then rewritten again and deleted on the other instance before the sweep: counts exact', async () => {
      for (const r of rewrites.filter((x) => x.landed)) {
        const t = await setUp(backing);
        await runUntilCut(t, rewriteCase(r));
        // A live rewrite after it: the paste still names the cut one's hold.
        await t.b.core.updatePaste.execute({ actor: t.alice.actor, id: t.items.paste, content: 'x'.repeat(20) });
        await t.pass(LEASE_MS, t.b);
        expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 1, failed: 0 });
        await expectExact(t);

        const u = await setUp(backing);
        await runUntilCut(u, rewriteCase(r));
        // Deleted while the cut one's instance may still live: the delete ends the rewrite the paste names as landed.
        await u.b.core.deletePaste.execute({ actor: u.alice.actor, id: u.items.paste });
        await u.pass(LEASE_MS, u.b);
        expect(await u.b.core.sweepDeadInstances.execute({})).toMatchObject({ failed: 0, settled: 0, released: 0 });
        await expectExact(u);
      }
    });

    it('a paste rewrite cut before its write, then the paste deleted before the sweep: counts exact', async () => {
      for (const r of rewrites.filter((x) => !x.landed)) {
        const t = await setUp(backing);
        await runUntilCut(t, rewriteCase(r));
        await t.b.core.deletePaste.execute({ actor: t.alice.actor, id: t.items.paste });
        await t.pass(LEASE_MS, t.b);
        expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 1, failed: 0 });
        await expectExact(t);
      }
    });

    const uploadCut: Case = {
      name: 'an upload, after its record, before its hold was settled',
      cut: { port: 'files', method: 'insert' },
      run: (core, actor, made) =>
        core.uploadFile.execute({ actor, folderId: made.folder, name: null, filename: 'cut.txt', mime: undefined, content: bytes('cut upload') }),
      expect: 'created',
      find: (p, u) => p.files.listByOwner(u).then((all) => all.filter((f) => f.name === 'cut.txt').length),
    };
    /** Whether every upload slot of the user is free: a hold opened with room for one goes in (and is given back). */
    const slotsFree = async (t: Awaited<ReturnType<typeof setUp>>) => {
      const probe = { id: 'slot-probe', at: new Date(), by: t.b.keeper.id() };
      const opened = await t.ports.usage.openHold(t.alice.userId, probe, 1);
      if (opened) await t.ports.usage.releaseHold(t.alice.userId, probe.id);
      return opened;
    };
    for (const how of ['the file', 'its folder'] as const) {
      it(`a file uploaded by an instance killed before settling its hold, ${how} deleted before the sweep: given back once, the slot free`, async () => {
        const t = await setUp(backing);
        await runUntilCut(t, uploadCut);
        const file = (await t.ports.files.listByOwner(t.alice.userId)).find((f) => f.name === 'cut.txt')!;
        expect(await slotsFree(t)).toBe(false);
        // Deleted while the dying instance's lease still runs: the removal counts the file and forgets its upload's hold.
        if (how === 'the file') await t.b.core.deleteFile.execute({ actor: t.alice.actor, id: file.id });
        else await t.b.core.deleteFolder.execute({ actor: t.alice.actor, id: t.items.folder });
        expect(await t.ports.usage.holdsOf(t.alice.userId)).toEqual([]);
        expect(await slotsFree(t)).toBe(true);
        await t.pass(LEASE_MS, t.b);
        expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ failed: 0, settled: 0, released: 0 });
        await expectExact(t);
        expect(await slotsFree(t)).toBe(true);
      });
    }

    it('an upload of an instance that lives, its record deleted before it settles: answered, counted once', async () => {
      const t = await setUp(backing);
      // The upload on the live instance `b` pauses right after its insert while its file is deleted.
      let resume!: () => void;
      let inserted!: (id: string) => void;
      const gotId = new Promise<string>((r) => (inserted = r));
      const files = Object.assign(Object.create(t.b.ports.files) as Ports['files'], {
        insert: async (f: StoredFile) => {
          await t.b.ports.files.insert(f);
          inserted(f.id);
          await new Promise<void>((r) => (resume = r));
        },
      });
      const core = createCore({ ...t.b.ports, files });
      const upload = uploadCut.run(core, t.alice.actor, t.items);
      const id = await gotId;
      await t.b.core.deleteFile.execute({ actor: t.alice.actor, id });
      resume();
      await upload;
      await expectExact(t);
      expect(await slotsFree(t)).toBe(true);
    });

    /** Instance `a`, stalled right after `cut` (not dead: it goes on when `resume` is called), running `c`. */
    const stallAt = (t: Awaited<ReturnType<typeof setUp>>, c: Case, cut: Cut) => {
      let resume!: () => void;
      let reached!: () => void;
      const there = new Promise<void>((r) => (reached = r));
      const port = t.a.ports[cut.port] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
      const stalled = Object.assign(Object.create(port) as object, {
        [cut.method]: async (...args: unknown[]) => {
          const result = await port[cut.method]!(...args);
          reached();
          await new Promise<void>((r) => (resume = r));
          return result;
        },
      });
      const outcome = c.run(createCore({ ...t.a.ports, [cut.port]: stalled }), t.alice.actor, t.items).then(
        () => 'done' as const,
        () => 'failed' as const,
      );
      return { there, outcome, resume: () => resume() };
    };
    const zombies = [
      { case: creates.find((c) => c.cut.port === 'collections')!, after: { port: 'collections', method: 'insert' } },
      { case: creates.find((c) => c.cut.port === 'folders')!, after: { port: 'folders', method: 'insert' } },
      { case: uploadCut, after: { port: 'files', method: 'insert' } },
    ] as const;
    for (const z of zombies) {
      it(`${z.case.name.split(',')[0]} whose instance stalled past its lease after its record: the sweep settles it, and the instance, back, keeps it`, async () => {
        const t = await setUp(backing);
        const stall = stallAt(t, z.case, z.after);
        await stall.there;
        // `a` stalls: its lease runs out, and `b`'s sweep finds the record and settles the hold.
        await t.pass(LEASE_MS, t.b);
        expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 1, failed: 0, settled: 1, released: 0 });
        stall.resume();
        expect(await stall.outcome).toBe('done');
        expect(await z.case.find(t.ports, t.alice.userId, t.items)).toBe(1);
        await expectExact(t);
        expect(await slotsFree(t)).toBe(true);
      });
    }
    for (const z of zombies) {
      it(`${z.case.name.split(',')[0]} whose instance stalled past its lease before its record: given back by the sweep, and the instance, back, takes its record back`, async () => {
        const t = await setUp(backing);
        const stall = stallAt(t, z.case, { port: 'usage', method: 'reserve' });
        await stall.there;
        await t.pass(LEASE_MS, t.b);
        expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 1, failed: 0, settled: 0, released: 1 });
        stall.resume();
        expect(await stall.outcome).toBe('failed');
        expect(await z.case.find(t.ports, t.alice.userId, t.items)).toBe(0);
        await expectExact(t);
        expect(await slotsFree(t)).toBe(true);
      });
    }

    const twice = [
      ['paste', 'pastes', (c: Core, a: Actor, m: Made) => c.deletePaste.execute({ actor: a, id: m.paste }), pasteThere],
      ['collection', 'collections', (c: Core, a: Actor, m: Made) => c.deleteCollection.execute({ actor: a, id: m.collection }), collectionThere],
      ['share', 'shares', (c: Core, a: Actor, m: Made) => c.deleteShare.execute({ actor: a, id: m.fileShare }), shareThere],
      ['token', 'tokens', (c: Core, a: Actor, m: Made) => c.deleteApiToken.execute({ actor: a, id: m.token }), tokenThere],
    ] as const;
    for (const [name, port, run, there] of twice) {
      it(`two deletes of one ${name}: the later killed after its intent, the earlier run from start to end in that moment; one sweep gives back once`, async () => {
        const t = await setUp(backing);
        // One more of each, so that a count given back twice shows (counters never go below zero).
        await t.b.core.createCollection.execute({ actor: t.alice.actor, name: 'other' });
        await t.b.core.createApiToken.execute({ actor: t.alice.actor, name: 'other' });
        await t.b.core.createPaste.execute({ actor: t.alice.actor, name: 'other', content: 'other' });
        // `a` reads the record, stalls while `b` deletes it from start to end, then writes its intent and dies.
        let died!: () => void;
        const cut = new Promise<void>((r) => (died = r));
        const stall = stallingAt(dyingAt(t.a.ports, { port: 'usage', method: 'beginDrop' }, died), { port, method: 'findById' }, 'after');
        void run(createCore(stall.ports), t.alice.actor, t.items).catch(() => undefined);
        await stall.reached;
        await run(t.b.core, t.alice.actor, t.items);
        stall.resume();
        await cut;
        expect((await t.ports.usage.holdsOf(t.alice.userId)).map((h) => [h.task?.kind, h.by])).toEqual([['drop', t.a.keeper.id()]]);
        await t.pass(LEASE_MS, t.b);
        expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 1, failed: 0, finished: 1 });
        await expectExact(t);
        expect(await there(t.ports, t.alice.userId, t.items)).toBe(0);
      });
    }

    const shareCut = deletes.find((c) => c.cut.port === 'usage' && c.name.startsWith('a share delete'))!;
    /** The removals that take a share with them: of its file, of its file's folder, of its paste, of its collection. */
    const removals = [
      ['its file', 'file', (c: Core, a: Actor, m: Made) => c.deleteFile.execute({ actor: a, id: m.file })],
      ['its file’s folder', 'file', (c: Core, a: Actor, m: Made) => c.deleteFolder.execute({ actor: a, id: m.folder })],
      ['its paste', 'paste', (c: Core, a: Actor, m: Made) => c.deletePaste.execute({ actor: a, id: m.paste })],
      ['its collection', 'collection', (c: Core, a: Actor, m: Made) => c.deleteCollection.execute({ actor: a, id: m.collection })],
    ] as const;
    const itemOf = (m: Made, type: 'file' | 'paste' | 'collection') => (type === 'file' ? m.file : type === 'paste' ? m.paste : m.collection);
    for (const [how, type, remove] of removals) {
      /** The owner's delete of the share, on `a`, killed right after its intent (its hold). */
      const shareDelete = async (t: Awaited<ReturnType<typeof setUp>>) => {
        const share = (await t.ports.shares.findByItem(type, itemOf(t.items, type)))!;
        await runUntilCut(t, { ...shareCut, run: (c, a) => c.deleteShare.execute({ actor: a, id: share.id }) });
        return share.id;
      };
      const settled = async (t: Awaited<ReturnType<typeof setUp>>, shareId: string) => {
        await t.pass(LEASE_MS, t.b);
        expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ failed: 0 });
        await expectExact(t);
        expect(await t.ports.shares.findById(shareId)).toBeNull();
        expect(await t.ports.shares.findByItem(type, itemOf(t.items, type))).toBeNull();
      };

      it(`a share delete killed after its intent, then ${how} deleted on the other instance: one sweep later, given back once`, async () => {
        const t = await setUp(backing);
        const shareId = await shareDelete(t);
        await remove(t.b.core, t.alice.actor, t.items);
        await settled(t, shareId);
      });

      it(`a share delete whose intent comes while ${how} is deleted on the other instance, after its shares were counted, and killed: one sweep later, given back once`, async () => {
        const t = await setUp(backing);
        // The owner's delete on `a` reads the share, and stalls; the removal on `b` goes as far as deleting the shares
        // it counted, and in that moment the owner's delete goes on, writes its intent and dies.
        const shareId = (await t.ports.shares.findByItem(type, itemOf(t.items, type)))!.id;
        let died!: () => void;
        const cut = new Promise<void>((r) => (died = r));
        const stall = stallingAt(dyingAt(t.a.ports, { port: 'usage', method: 'beginDrop' }, died), { port: 'shares', method: 'findById' }, 'after');
        void createCore(stall.ports).deleteShare.execute({ actor: t.alice.actor, id: shareId }).catch(() => undefined);
        await stall.reached;
        const target = t.b.ports.shares as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
        let raced = false;
        const shares = new Proxy(target, {
          get(on, key, receiver) {
            const method = Reflect.get(on, key, receiver) as unknown;
            if (typeof method !== 'function') return method;
            const bound = (method as (...a: unknown[]) => Promise<unknown>).bind(on);
            if ((key !== 'deleteClaimed' && key !== 'deleteByItems') || raced) return bound;
            return async (...args: unknown[]) => {
              raced = true;
              stall.resume();
              await cut;
              return bound(...args);
            };
          },
        }) as unknown as Ports['shares'];
        await remove(createCore({ ...t.b.ports, shares }), t.alice.actor, t.items);
        expect(raced).toBe(true);
        await settled(t, shareId);
      });
    }

    /** Deletes as an older version began them: a hold fixed from the start with the share count, no claims. */
    const older = [
      ['a paste delete', 'paste', false],
      ['a paste delete', 'paste', true],
      ['a collection delete', 'collection', false],
      ['a collection delete', 'collection', true],
      ['a share delete', 'share', false],
    ] as const;
    for (const [name, record, recordGone] of older) {
      it(`${name} begun by an older version, cut after its intent${recordGone ? ' and its record' : ''}: one sweep later, counts exact`, async () => {
        const t = await setUp(backing);
        const { userId } = t.alice;
        const hold = { at: t.ports.clock.now(), by: t.a.keeper.id() };
        if (record === 'share') {
          await t.a.ports.usage.beginDrop(userId, { id: t.items.fileShare, ...hold }, 'share', { shares: 1 });
        } else if (record === 'paste') {
          const paste = (await t.ports.pastes.findById(t.items.paste))!;
          await t.a.ports.usage.beginDrop(userId, { id: paste.id, ...hold }, 'paste', { pastes: 1, storage: paste.size, shares: 1 });
          if (recordGone) await t.ports.pastes.delete(paste.id);
        } else {
          await t.a.ports.usage.beginDrop(userId, { id: t.items.collection, ...hold }, 'collection', { collections: 1, shares: 1 });
          if (recordGone) await t.ports.collections.delete(t.items.collection);
        }
        await t.pass(LEASE_MS, t.b);
        expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 1, failed: 0, finished: 1 });
        await expectExact(t);
        const item = record === 'share' ? t.items.fileShare : record === 'paste' ? t.items.paste : t.items.collection;
        if (record === 'share') expect(await t.ports.shares.ownerOf(item)).toBeNull();
        else {
          expect(await t.ports.shares.findByItem(record, item)).toBeNull();
          expect(await (record === 'paste' ? pasteThere : collectionThere)(t.ports, userId, t.items)).toBe(0);
        }
      });
    }

    it('a share create taking its share back (its file deleted meanwhile) while its owner deletes it: counted once, given back once', async () => {
      const t = await setUp(backing);
      const { actor } = t.alice;
      const file = await t.b.core.uploadFile.execute({ actor, folderId: t.items.folder, name: null, filename: 'b.txt', mime: undefined, content: bytes('b') });
      const gate = () => {
        let open!: () => void;
        const opened = new Promise<void>((r) => (open = r));
        return { open, opened };
      };
      const beforeInsert = gate();
      const goInsert = gate();
      const inserted = gate();
      const goCheck = gate();
      const shares = Object.assign(Object.create(t.a.ports.shares) as Ports['shares'], {
        insert: async (share: Parameters<Ports['shares']['insert']>[0]) => {
          beforeInsert.open();
          await goInsert.opened;
          const done = await t.a.ports.shares.insert(share);
          inserted.open();
          await goCheck.opened;
          return done;
        },
      });
      // The create on `a` checked the file, and stalls before its insert while the file goes on `b`.
      const create = createCore({ ...t.a.ports, shares }).createShare.execute({ actor, type: 'file', id: file.id }).then(
        () => 'made' as const,
        () => 'failed' as const,
      );
      await beforeInsert.opened;
      await t.b.core.deleteFile.execute({ actor, id: file.id });
      goInsert.open();
      await inserted.opened;
      // The share stands for a moment: its owner's delete on `b` reads it and writes its intent, then stalls.
      const shareId = (await t.ports.shares.findByItem('file', file.id))!.id;
      const intent = gate();
      const goClaim = gate();
      const usage = Object.assign(Object.create(t.b.ports.usage) as Ports['usage'], {
        beginDrop: async (...args: Parameters<Ports['usage']['beginDrop']>) => {
          const begun = await t.b.ports.usage.beginDrop(...args);
          intent.open();
          await goClaim.opened;
          return begun;
        },
      });
      const drop = createCore({ ...t.b.ports, usage }).deleteShare.execute({ actor, id: shareId }).then(
        () => 'deleted' as const,
        () => 'failed' as const,
      );
      await intent.opened;
      // The create finds its file gone and takes its share back; then the delete finds nothing to claim.
      goCheck.open();
      expect(await create).toBe('failed');
      goClaim.open();
      expect(await drop).toBe('failed');
      expect(await t.ports.shares.ownerOf(shareId)).toBeNull();
      await expectExact(t);
    });

    it('a live share delete whose share a removal of its file claimed first: answered not found, given back once (by the removal)', async () => {
      const t = await setUp(backing);
      // The share's delete on `a` stalls after its intent; the file's removal on `b` stalls after it claimed and counted
      // the share: the share is the removal's, gone for the delete.
      const share = stallAt(t, { ...shareCut, run: (c, a, m) => c.deleteShare.execute({ actor: a, id: m.fileShare }) }, { port: 'usage', method: 'beginDrop' });
      await share.there;
      let resumeRemoval!: () => void;
      let fixed!: () => void;
      const wasFixed = new Promise<void>((r) => (fixed = r));
      const usage = Object.assign(Object.create(t.b.ports.usage) as Ports['usage'], {
        fixHeld: async (...args: Parameters<Ports['usage']['fixHeld']>) => {
          const done = await t.b.ports.usage.fixHeld(...args);
          fixed();
          await new Promise<void>((r) => (resumeRemoval = r));
          return done;
        },
      });
      const removal = createCore({ ...t.b.ports, usage }).deleteFile.execute({ actor: t.alice.actor, id: t.items.file });
      await wasFixed;
      share.resume();
      expect(await share.outcome).toBe('failed');
      resumeRemoval();
      await removal;
      await expectExact(t);
    });

    it('a delete repeated on the other instance once the lease ran out finishes the one cut short', async () => {
      const t = await setUp(backing);
      await runUntilCut(t, deletes[0]!);
      await t.pass(LEASE_MS, t.b);
      const err = await t.b.core.deletePaste.execute({ actor: t.alice.actor, id: t.items.paste }).catch((e: { code?: string }) => e);
      expect(err).toMatchObject({ code: 'not_found' });
      await expectExact(t);
      expect(await t.ports.pastes.findById(t.items.paste)).toBeNull();
    });

    it('a delete repeated while the cut one’s instance may live answers not found and leaves its work alone', async () => {
      const t = await setUp(backing);
      await runUntilCut(t, deletes[0]!);
      const err = await t.b.core.deletePaste.execute({ actor: t.alice.actor, id: t.items.paste }).catch((e: { code?: string }) => e);
      expect(err).toMatchObject({ code: 'not_found' });
      expect(await t.ports.pastes.findById(t.items.paste)).not.toBeNull();
      expect((await t.ports.usage.holdsOf(t.alice.userId)).map((h) => h.task?.kind)).toEqual(['drop']);
      await t.pass(LEASE_MS, t.b);
      expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 1, finished: 1, failed: 0 });
      await expectExact(t);
    });

    it('a folder and a share created by an instance that died before settling, deleted with their parent before the sweep: counts exact', async () => {
      const t = await setUp(backing);
      const folderCut = creates.find((c) => c.cut.port === 'folders')!;
      await runUntilCut(t, folderCut);
      // The same instance's next request died too: a share of the parent, after its insert.
      const shareOfParent: Case = {
        ...creates.find((c) => c.cut.port === 'shares')!,
        run: (core, actor, made) => core.createShare.execute({ actor, type: 'folder', id: made.folder }),
      };
      await runUntilCut(t, shareOfParent);
      expect((await t.ports.usage.holdsOf(t.alice.userId)).map((h) => h.task?.kind)).toEqual(['create', 'create']);
      // The parent's delete counts both and gives their counts back: their creates' holds are its to forget.
      await t.b.core.deleteFolder.execute({ actor: t.alice.actor, id: t.items.folder });
      expect(await t.ports.usage.holdsOf(t.alice.userId)).toEqual([]);
      await t.pass(LEASE_MS, t.b);
      expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ failed: 0, settled: 0, released: 0 });
      await expectExact(t);
    });

    it('a record created by an instance that died before settling is deleted in its place: one sweep later, counts exact', async () => {
      const t = await setUp(backing);
      await runUntilCut(t, creates.find((c) => c.cut.port === 'collections')!);
      const made = (await t.ports.collections.listByOwner(t.alice.userId)).find((x) => x.name === 'new')!;
      // Its delete takes the create's hold over: the record is found, so its count is the record's, and the delete's.
      await t.b.core.deleteCollection.execute({ actor: t.alice.actor, id: made.id });
      await t.pass(LEASE_MS, t.b);
      expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ failed: 0 });
      await expectExact(t);
    });
  });
}

recordCrashSuite('memory', async () => ({ ports: {}, leases: new MemoryInstanceLeases() }));

describe.skipIf(!target)('on MongoDB', () => {
  const databases = useFreshDatabases(target!);
  recordCrashSuite('MongoDB', () => mongoRecords(databases.fresh()));
});
