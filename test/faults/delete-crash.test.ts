import { describe, expect, it } from 'vitest';
import { createCore, type Core, type InstanceLeases, type Ports } from '../../src/application/index.js';
import { MemoryInstanceLeases } from '../../src/adapters/memory/index.js';
import type { Actor } from '../../src/domain/index.js';
import { bytes, signUp } from '../support/core.js';
import { LEASE_MS, type TestInstance } from '../support/instances.js';
import { getMongoUri, MONGO_SKIP_MESSAGE, useFreshDatabases } from '../support/mongo.js';
import { dead, dyingAt, mongoRecords, twoInstances } from '../support/crash.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

/** Where the records a delete touches, the counters and the leases live; users and bytes stay in memory. */
type Backing = () => Promise<{
  ports: Partial<Pick<Ports, 'usage' | 'files' | 'folders' | 'shares' | 'collections'>>;
  leases: InstanceLeases;
}>;

type PortName = 'files' | 'folders' | 'usage' | 'shares' | 'collections' | 'blobs';

/**
 * Where a kill can cut a folder delete: right after the `nth` call of a port method completed (its write reached the
 * database), the process is gone.
 */
interface Cut {
  name: string;
  port: PortName;
  method: string;
  nth?: number;
}

const CUTS: Cut[] = [
  { name: 'after its task was written, before the folder was marked', port: 'usage', method: 'beginTask' },
  { name: 'after the folder was marked, before any file was claimed', port: 'folders', method: 'markDeleting' },
  { name: 'after the files were claimed, before their counts were fixed', port: 'files', method: 'claim' },
  { name: 'after the files’ shares were claimed, before their counts were fixed', port: 'shares', method: 'claimByItems' },
  { name: 'after the files’ counts were fixed, before their shares went', port: 'usage', method: 'fixHeld' },
  { name: 'after the files’ shares went, before their collection entries', port: 'shares', method: 'deleteClaimed' },
  { name: 'after the file records went, before their bytes', port: 'files', method: 'deleteClaimed' },
  { name: 'after some of the bytes went', port: 'blobs', method: 'delete', nth: 120 },
  { name: 'after the folders were claimed, before their shares', port: 'folders', method: 'claimDeleting' },
  { name: 'after the folders’ shares were claimed, before their counts were fixed', port: 'shares', method: 'claimByItems', nth: 2 },
  { name: 'after the folders’ counts were fixed', port: 'usage', method: 'fixHeld', nth: 2 },
  { name: 'after the folders’ shares went, before the folders', port: 'shares', method: 'deleteClaimed', nth: 2 },
  { name: 'after the folder records went, before their counts', port: 'folders', method: 'deleteClaimed' },
];

/** A tree of 200 files in three folders, with shares (of files and of a folder) and collection entries. */
async function populate(core: Core, actor: Actor) {
  const root = await core.createFolder.execute({ actor, name: 'big', parentId: null });
  const subs = [
    await core.createFolder.execute({ actor, name: 'one', parentId: root.id }),
    await core.createFolder.execute({ actor, name: 'two', parentId: root.id }),
  ];
  const folders = [root, ...subs];
  const fileIds: string[] = [];
  for (let i = 0; i < 200; i++) {
    const folderId = folders[i % 3]!.id;
    const content = bytes(`file number ${i} `.repeat(1 + (i % 7)));
    const file = await core.uploadFile.execute({ actor, folderId, name: null, filename: `f${i}.txt`, mime: undefined, content });
    fileIds.push(file.id);
  }
  for (const id of fileIds.slice(0, 3)) await core.createShare.execute({ actor, type: 'file', id });
  await core.createShare.execute({ actor, type: 'folder', id: subs[0]!.id });
  const collection = await core.createCollection.execute({ actor, name: 'picked' });
  for (const fileId of fileIds.slice(10, 15)) await core.addToCollection.execute({ actor, id: collection.id, fileId });
  // Kept, outside the tree: a file, a folder and a share that must survive.
  const keptFolder = await core.createFolder.execute({ actor, name: 'kept', parentId: null });
  const kept = await core.uploadFile.execute({
    actor,
    folderId: keptFolder.id,
    name: null,
    filename: 'kept.txt',
    mime: undefined,
    content: bytes('kept bytes'),
  });
  await core.createShare.execute({ actor, type: 'file', id: kept.id });
  await core.addToCollection.execute({ actor, id: collection.id, fileId: kept.id });
  return { root, collection, kept, keptFolder };
}

/** The counters as the records say they should be, and what the counters say. */
async function audit(ports: Ports, userId: string) {
  const files = await ports.files.listByOwner(userId);
  const expected = {
    files: files.length,
    storage: files.reduce((sum, f) => sum + f.size, 0),
    folders: (await ports.folders.listByOwner(userId)).length,
    shares: (await ports.shares.listByOwner(userId)).length,
  };
  const { files: f, storage, folders, shares } = await ports.usage.get(userId);
  return { expected, counted: { files: f, storage, folders, shares } };
}

async function setUp(backing: Backing) {
  const { ports, a, b, alice, pass } = await twoInstances(backing, { limits: { files: 1000 } });
  const tree = await populate(b.core, alice.actor);
  return { ports, a, b, alice, pass, ...tree };
}

/** Deletes the tree on instance `a`, which dies at `cut`. */
async function deleteUntilCut(a: TestInstance, actor: Actor, rootId: string, cut: Cut): Promise<void> {
  let reached!: () => void;
  const there = new Promise<void>((resolve) => (reached = resolve));
  void createCore(dyingAt(a.ports, cut, reached))
    .deleteFolder.execute({ actor, id: rootId })
    .catch(() => undefined);
  await there;
}

/** What must hold once the cut delete is finished: the tree gone whole, the rest untouched, counters exact. */
async function expectFinished(t: Awaited<ReturnType<typeof setUp>>, treeGone: boolean): Promise<void> {
  const { ports, alice } = t;
  const { expected, counted } = await audit(ports, alice.userId);
  expect(counted).toEqual(expected);
  const files = await ports.files.listByOwner(alice.userId);
  if (treeGone) {
    expect(files.map((f) => f.id)).toEqual([t.kept.id]);
    expect((await ports.folders.listByOwner(alice.userId)).map((f) => f.id)).toEqual([t.keptFolder.id]);
    expect((await ports.shares.listByOwner(alice.userId)).map((s) => s.itemId)).toEqual([t.kept.id]);
    expect((await ports.collections.findById(t.collection.id))!.fileIds).toEqual([t.kept.id]);
    expect(expected).toEqual({ files: 1, storage: 'kept bytes'.length, folders: 1, shares: 1 });
  } else {
    expect(files).toHaveLength(201);
  }
  // No blob that no record names, and no task left.
  const keys = (ports.blobs as unknown as { keys(): string[] }).keys();
  expect(keys.sort()).toEqual(files.map((f) => f.blobKey).sort());
  expect(await ports.usage.holdsOf(alice.userId)).toEqual([]);
  // The auditor agrees: nothing to repair.
  expect((await t.b.core.reconcileUsage.execute({ actor: null, fix: false })).drifted).toEqual([]);
}

function deleteCrashSuite(name: string, backing: Backing): void {
  describe(`a folder delete of 200 files cut by the death of its instance (${name}, two instances)`, () => {
    for (const cut of CUTS) {
      const neverBegan = cut.method === 'beginTask';
      describe(cut.name, () => {
        it(`is ${neverBegan ? 'dropped' : 'finished'} by the other instance's sweep once the lease ran out`, async () => {
          const t = await setUp(backing);
          await deleteUntilCut(t.a, t.alice.actor, t.root.id, cut);
          await t.pass(LEASE_MS - 1, t.b);
          expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ finished: 0 });
          await t.pass(1, t.b);
          expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 1, failed: 0 });
          await expectFinished(t, !neverBegan);
          expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 0, finished: 0 });
        });

        it('is finished by the delete repeated on the other instance once the lease ran out', async () => {
          const t = await setUp(backing);
          await deleteUntilCut(t.a, t.alice.actor, t.root.id, cut);
          await t.pass(LEASE_MS, t.b);
          await t.b.core.deleteFolder.execute({ actor: t.alice.actor, id: t.root.id }).catch((err: { code?: string }) => {
            // The finished delete took the folder already: the repeat finds none.
            expect(err.code).toBe('not_found');
          });
          await expectFinished(t, true);
        });
      });
    }

    it('repeated while the dying instance may still live, finishes all but what it claimed; its sweep the rest', async () => {
      const t = await setUp(backing);
      await deleteUntilCut(t.a, t.alice.actor, t.root.id, { name: '', port: 'usage', method: 'fixHeld' });
      await t.b.core.deleteFolder.execute({ actor: t.alice.actor, id: t.root.id });
      // The 200 files claimed by the instance that died stay until its lease has run out; everything else went.
      expect(await t.ports.files.listByOwner(t.alice.userId)).toHaveLength(201);
      expect((await t.ports.folders.listByOwner(t.alice.userId)).map((f) => f.id)).toEqual([t.keptFolder.id]);
      await t.pass(LEASE_MS, t.b);
      expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 1, finished: 2, failed: 0 });
      await expectFinished(t, true);
    });
  });

  describe(`a removal killed right after deleting its items' shares while their owner changes them on the other instance (${name})`, () => {
    /**
     * The ports of instance `a` for a removal that, right after the `nth` fix of its counts (its shares counted and
     * claimed, none deleted yet), lets the owner act on the other instance, then dies once it deleted the shares of
     * that step (whichever method deletes them).
     */
    function racedAndKilled(t: Awaited<ReturnType<typeof setUp>>, nth: number, owner: () => Promise<unknown>, reached: () => void): Ports {
      let fixes = 0;
      let fixedAt = -1;
      let shareDeletes = 0;
      const usage = Object.assign(Object.create(t.a.ports.usage) as object, {
        fixHeld: async (...args: Parameters<Ports['usage']['fixHeld']>) => {
          const done = await t.a.ports.usage.fixHeld(...args);
          if (++fixes === nth) {
            fixedAt = shareDeletes;
            await owner().catch(() => undefined);
          }
          return done;
        },
      }) as Ports['usage'];
      const target = t.a.ports.shares as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
      const shares = new Proxy(target, {
        get(on, key, receiver) {
          const method = Reflect.get(on, key, receiver) as unknown;
          if (typeof method !== 'function') return method;
          if (key !== 'deleteClaimed' && key !== 'deleteByItems') return (method as (...a: unknown[]) => unknown).bind(on);
          return async (...args: unknown[]) => {
            const result = await (method as (...a: unknown[]) => Promise<unknown>).apply(on, args);
            shareDeletes++;
            if (fixedAt < 0 || shareDeletes !== fixedAt + 1) return result;
            reached();
            return dead();
          };
        },
      }) as unknown as Ports['shares'];
      return { ...t.a.ports, usage, shares };
    }

    async function run(t: Awaited<ReturnType<typeof setUp>>, nth: number, removal: (core: Core) => Promise<unknown>, owner: () => Promise<unknown>) {
      let reached!: () => void;
      const there = new Promise<'cut'>((resolve) => (reached = () => resolve('cut')));
      const ended = removal(createCore(racedAndKilled(t, nth, owner, reached))).then(
        () => 'ended' as const,
        () => 'ended' as const,
      );
      expect(await Promise.race([there, ended]), 'the removal must reach its cut').toBe('cut');
      await t.pass(LEASE_MS, t.b);
      expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 1, failed: 0 });
    }

    /** A file of the tree that has a share, and two that have none. */
    async function filesOf(t: Awaited<ReturnType<typeof setUp>>) {
      const shares = await t.ports.shares.listByOwner(t.alice.userId);
      const shared = shares.find((share) => share.type === 'file' && share.itemId !== t.kept.id)!;
      const files = await t.ports.files.listByOwner(t.alice.userId);
      const [unshared, another] = files.filter((file) => file.id !== t.kept.id && !shares.some((share) => share.itemId === file.id));
      return { shared, unshared: unshared!, another: another! };
    }

    async function expectExactAfter(t: Awaited<ReturnType<typeof setUp>>, fileId: string): Promise<void> {
      const { expected, counted } = await audit(t.ports, t.alice.userId);
      expect(counted).toEqual(expected);
      expect(await t.ports.files.findById(fileId)).toBeNull();
      expect(await t.ports.shares.findByItem('file', fileId)).toBeNull();
      expect(await t.ports.usage.holdsOf(t.alice.userId)).toEqual([]);
      expect((await t.b.core.reconcileUsage.execute({ actor: null, fix: false })).drifted).toEqual([]);
    }

    it('a file removal, the owner deleting the file’s share in that moment: one sweep later, counts exact', async () => {
      const t = await setUp(backing);
      const { shared } = await filesOf(t);
      const actor = t.alice.actor;
      await run(t, 1, (core) => core.deleteFile.execute({ actor, id: shared.itemId }), () => t.b.core.deleteShare.execute({ actor, id: shared.id }));
      await expectExactAfter(t, shared.itemId);
    });

    it('a file removal, the owner sharing the file in that moment: one sweep later, counts exact', async () => {
      const t = await setUp(backing);
      const { unshared } = await filesOf(t);
      const actor = t.alice.actor;
      await run(t, 1, (core) => core.deleteFile.execute({ actor, id: unshared.id }), () => t.b.core.createShare.execute({ actor, type: 'file', id: unshared.id }));
      await expectExactAfter(t, unshared.id);
    });

    it('a folder delete killed after its files’ shares went, the owner deleting one and sharing two other files in that moment: one sweep later, counts exact', async () => {
      const t = await setUp(backing);
      const { shared, unshared, another } = await filesOf(t);
      const actor = t.alice.actor;
      // (One deleted and one made would cancel out where the removal follows the shares it deleted after the fact.)
      const owner = async () => {
        await t.b.core.deleteShare.execute({ actor, id: shared.id }).catch(() => undefined);
        await t.b.core.createShare.execute({ actor, type: 'file', id: unshared.id }).catch(() => undefined);
        await t.b.core.createShare.execute({ actor, type: 'file', id: another.id });
      };
      await run(t, 1, (core) => core.deleteFolder.execute({ actor, id: t.root.id }), owner);
      await expectFinished(t, true);
    });

    it('a folder delete killed after its folders’ shares went, the owner deleting a folder’s share in that moment: one sweep later, counts exact', async () => {
      const t = await setUp(backing);
      const actor = t.alice.actor;
      const folderShare = (await t.ports.shares.listByOwner(t.alice.userId)).find((share) => share.type === 'folder')!;
      await run(t, 2, (core) => core.deleteFolder.execute({ actor, id: t.root.id }), () => t.b.core.deleteShare.execute({ actor, id: folderShare.id }));
      await expectFinished(t, true);
    });
  });

  describe(`an account's deletion cut by the death of its instance (${name})`, () => {
    const cuts: Cut[] = [
      { name: 'after its task was written, before anything went', port: 'usage', method: 'beginTask' },
      { name: 'after some file bytes went', port: 'blobs', method: 'delete', nth: 50 },
      { name: 'after the user record went, before its counters', port: 'folders', method: 'deleteMany' },
    ];
    for (const cut of cuts) {
      it(`${cut.name}: is finished by the other instance's sweep once the lease ran out`, async () => {
        const t = await setUp(backing);
        const admin = await signUp({ core: t.b.core, ports: t.ports }, 'root', 'admin');
        let reached!: () => void;
        const there = new Promise<void>((resolve) => (reached = resolve));
        void createCore(dyingAt(t.a.ports, cut, reached))
          .deleteUser.execute({ actor: admin.actor, id: t.alice.userId })
          .catch(() => undefined);
        await there;
        await t.pass(LEASE_MS, t.b);
        expect(await t.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 1, finished: 1, failed: 0 });
        const { ports, alice } = t;
        expect(await ports.users.findById(alice.userId)).toBeNull();
        expect(await ports.files.listByOwner(alice.userId)).toEqual([]);
        expect(await ports.folders.listByOwner(alice.userId)).toEqual([]);
        expect(await ports.shares.listByOwner(alice.userId)).toEqual([]);
        expect(await ports.usage.holdsOf(alice.userId)).toEqual([]);
        expect((ports.blobs as unknown as { keys(): string[] }).keys()).toEqual([]);
        expect(await ports.usage.writers()).not.toContain(t.a.keeper.id());
      });
    }
  });
}

deleteCrashSuite('memory', async () => ({ ports: {}, leases: new MemoryInstanceLeases() }));

describe.skipIf(!target)('on MongoDB', () => {
  const databases = useFreshDatabases(target!);
  deleteCrashSuite('MongoDB', () => mongoRecords(databases.fresh()));
});
