import { describe, expect, it } from 'vitest';
import { MemoryBlobStore } from '../../src/adapters/memory-blob-store/memory-blob-store.js';
import { createCore, type Core, type Ports } from '../../src/application/index.js';
import type { Actor } from '../../src/domain/index.js';
import { bytes, makeCore, signUp } from '../support/core.js';
import { ticks, treeProblems } from '../support/tree-check.js';
import { until } from '../support/wait.js';

const ROUNDS = 50;

/**
 * Two app instances on one set of memory repositories and one blob store. A write that never waits for anything
 * finishes before a racing delete can take a step; `slowWrites` makes every record update take `delay()` turns, as
 * a write to a database does, so the delete's marking and listing can fall inside it.
 */
async function twoInstances(slowWrites?: () => number) {
  const slow = <T extends Updating>(repository: T) => (slowWrites ? beforeUpdates(repository, () => ticks(slowWrites())) : repository);
  const ctx = makeCore({
    limits: { folders: 1000, files: 1000 },
    wrapPorts: (ports) => ({ ...ports, files: slow(ports.files), folders: slow(ports.folders) }),
  });
  const { actor } = await signUp(ctx, 'alice');
  return { ...ctx, cores: [ctx.core, createCore(ctx.ports)] as const, alice: actor };
}

/** Delays of 0 to 39 turns, a different one for each write. */
function cycling(): () => number {
  let writes = 0;
  return () => (writes++ * 7) % 40;
}

type Updating = { update(...args: never[]): Promise<unknown> };

/** The repository, with every `update` waiting for `before()` first. */
function beforeUpdates<T extends Updating>(repository: T, before: () => Promise<void>): T {
  return new Proxy(repository, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (name !== 'update') return value.bind(target);
      return async (...args: unknown[]) => {
        await before();
        return value.apply(target, args);
      };
    },
  });
}

const mkdir = (core: Core, actor: Actor, name: string, parentId: string | null = null) =>
  core.createFolder.execute({ actor, name, parentId });

const put = (core: Core, actor: Actor, folderId: string | null, data: string | AsyncIterable<Uint8Array> = 'abc') =>
  core.uploadFile.execute({
    actor,
    folderId,
    name: null,
    filename: 'f.txt',
    mime: 'text/plain',
    content: typeof data === 'string' ? bytes(data) : data,
  });

const codeOf = (result: PromiseSettledResult<unknown>) =>
  result.status === 'fulfilled' ? 'ok' : ((result.reason as { code?: string }).code ?? String(result.reason));

/** The blobs the store holds beyond those the file records point at. */
async function strayBlobs(ports: Ports, ownerId: string): Promise<string[]> {
  const referenced = new Set((await ports.files.listByOwner(ownerId)).map((f) => f.blobKey));
  return (ports.blobs as MemoryBlobStore).keys().filter((key) => !referenced.has(key));
}

/**
 * Each round makes a folder with a subfolder, then deletes the folder on one instance while `racer` puts something
 * into the subfolder on the other, one of them started up to 24 microtask turns after the other so the race falls
 * at every step of both. The racer may succeed or find the folder gone (404); what is stored must stay a whole tree
 * with exact counters.
 */
async function raceDeletes(
  racer: (core: Core, actor: Actor, folderId: string, round: number) => Promise<unknown>,
  setup: (core: Core, actor: Actor) => Promise<void> = async () => undefined,
  slowWrites?: () => number,
) {
  const ctx = await twoInstances(slowWrites);
  const { ports, cores, alice } = ctx;
  await setup(cores[0], alice);
  const outcomes = new Map<string, number>();
  for (let round = 0; round < ROUNDS; round++) {
    const parent = await mkdir(cores[0], alice, `p${round}`);
    const sub = await mkdir(cores[0], alice, 's', parent.id);
    // Even rounds give the delete a head start, odd ones the racer, of 0 to 24 turns.
    const [deleteAfter, raceAfter] = round % 2 === 0 ? [0, (round / 2) % 25] : [((round - 1) / 2) % 25, 0];
    const [deleted, raced] = await Promise.allSettled([
      ticks(deleteAfter).then(() => cores[0].deleteFolder.execute({ actor: alice, id: parent.id })),
      ticks(raceAfter).then(() => racer(cores[1], alice, sub.id, round)),
    ]);
    expect(codeOf(deleted)).toBe('ok');
    const outcome = codeOf(raced);
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    expect(['ok', 'not_found']).toContain(outcome);
  }
  expect(await treeProblems(ports, alice.userId)).toEqual([]);
  expect(await strayBlobs(ports, alice.userId)).toEqual([]);
  return { ...ctx, outcomes };
}

describe(`${ROUNDS} rounds of a folder deleted while something goes into its subfolder`, () => {
  it('folder creates: each lands in a live folder or not at all, counted exactly', async () => {
    const { outcomes } = await raceDeletes((core, actor, folderId) => mkdir(core, actor, 'late', folderId));
    expect(outcomes.get('not_found')).toBeGreaterThan(0);
  });

  it('uploads: each file lands in a live folder or not at all, with no stray bytes', async () => {
    const { outcomes } = await raceDeletes((core, actor, folderId) => put(core, actor, folderId));
    expect(outcomes.get('not_found')).toBeGreaterThan(0);
  });

  it('file moves: a file moved into the dying folder ends in a live folder or not at all', async () => {
    const files: string[] = [];
    await raceDeletes(
      async (core, actor, folderId, round) => core.updateFile.execute({ actor, id: files[round]!, folderId }),
      async (core, actor) => {
        const home = await mkdir(core, actor, 'home');
        for (let i = 0; i < ROUNDS; i++) files.push((await put(core, actor, home.id, `file ${i}`)).id);
      },
      cycling(),
    );
  });

  it('folder moves: a folder moved into the dying folder ends in a live folder or not at all', async () => {
    const moving: string[] = [];
    await raceDeletes(
      async (core, actor, parentId, round) => core.updateFolder.execute({ actor, id: moving[round]!, parentId }),
      async (core, actor) => {
        const home = await mkdir(core, actor, 'home');
        for (let i = 0; i < ROUNDS; i++) {
          const folder = await mkdir(core, actor, `m${i}`, home.id);
          await mkdir(core, actor, 'inner', folder.id);
          await put(core, actor, folder.id, `inside ${i}`);
          moving.push(folder.id);
        }
      },
      cycling(),
    );
  });

  it('moves racing the deletes of both their old and their new folder end in a live folder or not at all', async () => {
    const { ports, cores, alice } = await twoInstances(cycling());
    // A fixed pseudo-random sequence (an LCG), so every run races the same way.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) >> 16;
    for (let round = 0; round < ROUNDS; round++) {
      const home = await mkdir(cores[0], alice, `home${round}`);
      const folder = await mkdir(cores[0], alice, 'moving', home.id);
      await put(cores[0], alice, folder.id, 'inside');
      const file = await put(cores[0], alice, home.id, 'loose');
      const target = await mkdir(cores[0], alice, `target${round}`);
      const racers: (() => Promise<unknown>)[] = [
        () => cores[0].deleteFolder.execute({ actor: alice, id: target.id }),
        () => cores[0].deleteFolder.execute({ actor: alice, id: home.id }),
        () => cores[1].updateFolder.execute({ actor: alice, id: folder.id, parentId: target.id }),
        () => cores[1].updateFile.execute({ actor: alice, id: file.id, folderId: target.id }),
      ];
      const results = await Promise.allSettled(racers.map((run) => ticks(next() % 30).then(() => run())));
      for (const result of results) expect(['ok', 'not_found']).toContain(codeOf(result));
    }
    expect(await treeProblems(ports, alice.userId)).toEqual([]);
    expect(await strayBlobs(ports, alice.userId)).toEqual([]);
    expect(await ports.folders.listByOwner(alice.userId)).toEqual([]);
  });
});

describe('a move whose new folder is deleted under it, and then its old one', () => {
  /** Steps: the move's write waits while the new folder is deleted, its way back waits while the old one is. */
  async function stepThrough(kind: 'files' | 'folders') {
    const held: (() => void)[] = [];
    const hold = () => new Promise<void>((resolve) => held.push(resolve));
    const ctx = makeCore({ wrapPorts: (ports) => ({ ...ports, [kind]: beforeUpdates(ports[kind], hold) }) });
    const { actor: alice } = await signUp(ctx, 'alice');
    const { core, ports } = ctx;
    const home = await mkdir(core, alice, 'home');
    const target = await mkdir(core, alice, 'target');
    const folder = await mkdir(core, alice, 'moving', home.id);
    await put(core, alice, folder.id, 'inside the moving folder');
    const file = await put(core, alice, home.id, 'a moving file');
    const move =
      kind === 'folders'
        ? core.updateFolder.execute({ actor: alice, id: folder.id, parentId: target.id })
        : core.updateFile.execute({ actor: alice, id: file.id, folderId: target.id });
    await until(() => held.length === 1, 'the move to write');
    await core.deleteFolder.execute({ actor: alice, id: target.id });
    held[0]!();
    await until(() => held.length === 2, 'the move to go back');
    await core.deleteFolder.execute({ actor: alice, id: home.id });
    held[1]!();
    await expect(move).rejects.toMatchObject({ code: 'not_found' });
    expect(await treeProblems(ports, alice.userId)).toEqual([]);
    expect(await ports.folders.listByOwner(alice.userId)).toEqual([]);
    expect(await ports.files.listByOwner(alice.userId)).toEqual([]);
    expect((ports.blobs as MemoryBlobStore).keys()).toEqual([]);
  }

  it('deletes a folder that went back into a folder being deleted, with its content, and answers 404', async () => {
    await stepThrough('folders');
  });

  it('deletes a file that went back into a folder being deleted, and answers 404', async () => {
    await stepThrough('files');
  });
});

describe('an upload streaming into a subfolder', () => {
  it('is not kept when the parent is deleted mid-stream: 404, and no bytes or counts remain', async () => {
    const { ports, cores, alice } = await twoInstances();
    const parent = await mkdir(cores[0], alice, 'parent');
    const sub = await mkdir(cores[0], alice, 'sub', parent.id);
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => (resume = resolve));
    let streaming!: () => void;
    const started = new Promise<void>((resolve) => (streaming = resolve));
    async function* content(): AsyncIterable<Uint8Array> {
      yield Buffer.alloc(2 * 1024 * 1024, 1);
      streaming();
      await paused;
      yield Buffer.alloc(1024, 2);
    }
    const upload = put(cores[1], alice, sub.id, content());
    await started;
    await cores[0].deleteFolder.execute({ actor: alice, id: parent.id });
    resume();
    await expect(upload).rejects.toMatchObject({ code: 'not_found' });
    expect(await ports.files.listByOwner(alice.userId)).toEqual([]);
    expect((ports.blobs as MemoryBlobStore).keys()).toEqual([]);
    expect(await ports.usage.get(alice.userId)).toMatchObject({ files: 0, storage: 0, folders: 0 });
    expect(await treeProblems(ports, alice.userId)).toEqual([]);
  });
});
