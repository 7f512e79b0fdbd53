import { describe, expect, it } from 'vitest';
import { createCore, type Core, type Ports } from '../../src/application/index.js';
import { STORAGE_BATCH } from '../../src/application/files/storage-meter.js';
import { MemoryInstanceLeases } from '../../src/adapters/memory/index.js';
import type { InstanceLeases } from '../../src/application/ports/index.js';
import { bytes } from '../support/core.js';
import { LEASE_MS } from '../support/instances.js';
import { getMongoUri, MONGO_SKIP_MESSAGE, useFreshDatabases } from '../support/mongo.js';
import { mongoRecords, twoInstances } from '../support/crash.js';

/**
 * An instance killed in the middle of an upload into a file request: the room the upload took of the request
 * (`files`, `bytes`) goes back with the upload's hold, in the sweep of gone instances, exactly once.
 */

const HOUR = 3_600_000;
const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

type Backing = () => Promise<{ ports: Partial<Pick<Ports, 'usage' | 'files' | 'requests' | 'uploads'>>; leases: InstanceLeases }>;

/** A promise that never settles: the process "dies" there, so nothing after it (cleanup included) ever runs. */
const dead = () => new Promise<never>(() => {});

/** Port `port` of `p` with `method` replaced. */
function cut<K extends keyof Ports>(p: Ports, port: K, method: string, run: (...args: never[]) => unknown): Ports {
  return { ...p, [port]: Object.assign(Object.create(p[port] as object) as Ports[K], { [method]: run }) };
}

const KEPT = 'kept bytes';

async function setUp(backing: Backing) {
  const { ports, a, b, alice, pass } = await twoInstances(backing);
  const request = await b.core.createRequest.execute({ actor: alice.actor, name: 'inbox', maxFiles: 10, maxBytes: 10 * STORAGE_BATCH });
  // One file received before: what the request holds after any repair.
  await b.core.receiveFile.execute({ ...key(request.id), filename: 'kept.txt', mime: 'text/plain', content: bytes(KEPT) });
  const room = async () => {
    const { files, bytes: taken } = (await ports.requests.findById(request.id))!;
    return { files, bytes: taken };
  };
  const received = { files: 1, bytes: KEPT.length };
  expect(await room()).toEqual(received);
  const usage = async () => {
    const { files, storage } = await ports.usage.get(alice.userId);
    return { files, storage };
  };
  return { ports, a, b, pass, alice, request, room, received, usage };
}

const key = (id: string) => ({ id, password: null, uploaderName: 'Bob', note: null });

/** A multipart upload into the request on `core`, started and left running. */
function send(core: Core, requestId: string, content: AsyncIterable<Uint8Array>) {
  return core.receiveFile.execute({ ...key(requestId), filename: 'sent.bin', mime: undefined, content });
}

/** Yields `first` bytes, then never again: the body of a client whose instance died under it. */
async function* cutAfter(first: number): AsyncIterable<Uint8Array> {
  yield new Uint8Array(first).fill(7);
  await dead();
}

/** Resolves once `reached` is called by a port the test cut. */
function crashPoint() {
  let reached!: () => void;
  const there = new Promise<void>((resolve) => (reached = resolve));
  return { there, reached };
}

function requestCrashSuite(name: string, backing: Backing): void {
  describe(`an instance killed during an upload into a file request (${name})`, () => {
    it('multipart, in the middle of its bytes: one sweep after the lease ran out gives the request its room back', async () => {
      const s = await setUp(backing);
      const { there, reached } = crashPoint();
      // The kill comes after a whole batch was taken of the request, and of the owner's storage, while more is on its way.
      const p = cut(s.a.ports, 'usage', 'reserve', function (this: Ports['usage'], ...args: Parameters<Ports['usage']['reserve']>) {
        const done = Object.getPrototypeOf(this).reserve.apply(this, args) as Promise<boolean>;
        if (args[1] === 'storage') void done.then(reached);
        return done;
      });
      void send(createCore(p), s.request.id, cutAfter(STORAGE_BATCH)).catch(() => {});
      await there;
      expect(await s.room()).toEqual({ files: 2, bytes: KEPT.length + STORAGE_BATCH });

      await s.pass(LEASE_MS - 1, s.b);
      expect(await s.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 0, released: 0 });
      expect(await s.room()).toEqual({ files: 2, bytes: KEPT.length + STORAGE_BATCH });
      await s.pass(1, s.b);
      expect(await s.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 1, released: 1 });
      expect(await s.room()).toEqual(s.received);
      expect(await s.usage()).toEqual({ files: 1, storage: KEPT.length });
      // Once only: the next sweep, and a second try at the hold, give nothing more.
      expect(await s.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 0 });
      expect(await s.ports.requests.giveBackHeld((await s.ports.usage.holdsOf(s.alice.userId))[0]?.holdId ?? 'none')).toBe(false);
      expect(await s.room()).toEqual(s.received);
    });

    it('multipart, after its bytes, before its record: the sweep gives the room back', async () => {
      const s = await setUp(backing);
      const { there, reached } = crashPoint();
      const p = cut(s.a.ports, 'files', 'insert', () => (reached(), dead()));
      void send(createCore(p), s.request.id, bytes(new Uint8Array(3000).fill(1), 1000)).catch(() => {});
      await there;
      expect(await s.room()).toEqual({ files: 2, bytes: KEPT.length + 3000 });
      await s.pass(LEASE_MS, s.b);
      expect(await s.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 1, released: 1 });
      expect(await s.room()).toEqual(s.received);
      expect(await s.usage()).toEqual({ files: 1, storage: KEPT.length });
    });

    it('multipart, its record refused, killed right after its hold was released: the room went back first', async () => {
      const s = await setUp(backing);
      const { there, reached } = crashPoint();
      let p = cut(s.a.ports, 'files', 'insert', () => Promise.reject(new Error('the database refused the record')));
      p = cut(p, 'usage', 'releaseHold', function (this: Ports['usage'], ...args: Parameters<Ports['usage']['releaseHold']>) {
        return (Object.getPrototypeOf(this).releaseHold.apply(this, args) as Promise<boolean>).then(() => (reached(), dead()));
      });
      void send(createCore(p), s.request.id, bytes(new Uint8Array(3000).fill(1), 1000)).catch(() => {});
      await there;
      // Nothing holds anything any more, so no sweep could give back what was left: nothing is.
      expect(await s.ports.usage.holdsOf(s.alice.userId)).toEqual([]);
      expect(await s.room()).toEqual(s.received);
      expect(await s.usage()).toEqual({ files: 1, storage: KEPT.length });
    });

    it('multipart, after its record: the room stays, the file has it', async () => {
      const s = await setUp(backing);
      const { there, reached } = crashPoint();
      const p = cut(s.a.ports, 'usage', 'settleHold', () => (reached(), dead()));
      void send(createCore(p), s.request.id, bytes(new Uint8Array(3000).fill(1), 1000)).catch(() => {});
      await there;
      await s.pass(LEASE_MS, s.b);
      expect(await s.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 1, settled: 1 });
      const landed = { files: 2, bytes: KEPT.length + 3000 };
      expect(await s.room()).toEqual(landed);
      const file = (await s.ports.files.listByOwner(s.alice.userId)).find((f) => f.name === 'sent.bin')!;
      expect(file.request).toMatchObject({ requestId: s.request.id, uploaderName: 'Bob' });
      // The request no longer holds the room under the upload's hold: nothing can give it back any more.
      expect(await s.ports.requests.giveBackHeld(file.id)).toBe(false);
      expect(await s.room()).toEqual(landed);
    });

    it('tus, completing, after the session was taken and before the record: the sweep gives the room back', async () => {
      const s = await setUp(backing);
      const made = await s.a.core.createRequestUpload.execute({ ...key(s.request.id), length: 3000, filename: 't.bin', mime: undefined });
      expect(await s.room()).toEqual({ files: 2, bytes: KEPT.length + 3000 });
      const { there, reached } = crashPoint();
      const p = cut(s.a.ports, 'files', 'insert', () => (reached(), dead()));
      const content = bytes(new Uint8Array(3000).fill(2), 1000);
      void createCore(p).appendUpload.execute({ actor: null, id: made.id, offset: 0, content }).catch(() => {});
      await there;
      expect(await s.ports.uploads.findById(made.id)).toBeNull();
      await s.pass(LEASE_MS, s.b);
      expect(await s.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 1, released: 1 });
      expect(await s.room()).toEqual(s.received);
      expect(await s.usage()).toEqual({ files: 1, storage: KEPT.length });
    });

    it('tus, creating, after the room was taken and before the session was stored: the sweep gives it back', async () => {
      const s = await setUp(backing);
      const { there, reached } = crashPoint();
      const p = cut(s.a.ports, 'uploads', 'insert', () => (reached(), dead()));
      void createCore(p)
        .createRequestUpload.execute({ ...key(s.request.id), length: 5000, filename: 't.bin', mime: undefined })
        .catch(() => {});
      await there;
      expect(await s.room()).toEqual({ files: 2, bytes: KEPT.length + 5000 });
      await s.pass(LEASE_MS, s.b);
      expect(await s.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 1, released: 1 });
      expect(await s.room()).toEqual(s.received);
      expect(await s.usage()).toEqual({ files: 1, storage: KEPT.length });
    });

    it('tus, cut in the middle of an append: the living upload keeps its room, resumes elsewhere, and lands once', async () => {
      const s = await setUp(backing);
      const length = STORAGE_BATCH + 500;
      const made = await s.a.core.createRequestUpload.execute({ ...key(s.request.id), length, filename: 't.bin', mime: undefined });
      void s.a.core.appendUpload.execute({ actor: null, id: made.id, offset: 0, content: cutAfter(STORAGE_BATCH) }).catch(() => {});
      await s.pass(LEASE_MS, s.b);
      await s.b.core.sweepDeadInstances.execute({});
      // The session lives on (it can be resumed): its room is still taken, once.
      expect(await s.room()).toEqual({ files: 2, bytes: KEPT.length + length });
      const offset = (await s.b.core.getUpload.execute({ actor: null, id: made.id })).offset;
      const rest = bytes(new Uint8Array(length - offset).fill(3));
      const done = await s.b.core.appendUpload.execute({ actor: null, id: made.id, offset, content: rest });
      expect(done.fileId).toBe(made.id);
      expect(await s.b.core.sweepDeadInstances.execute({})).toMatchObject({ released: 0 });
      expect(await s.room()).toEqual({ files: 2, bytes: KEPT.length + length });
      expect(await s.ports.requests.giveBackHeld(made.id)).toBe(false);
    });

    it("leaves a live instance's upload alone, however long it stalls, and it lands with its room taken once", async () => {
      const s = await setUp(backing);
      let resume!: () => void;
      const paused = new Promise<void>((resolve) => (resume = resolve));
      const { there, reached } = crashPoint();
      async function* slow(): AsyncIterable<Uint8Array> {
        yield new Uint8Array(STORAGE_BATCH).fill(1);
        yield new Uint8Array(10).fill(2);
        reached();
        await paused;
        yield new Uint8Array(20).fill(3);
      }
      const result = send(s.a.core, s.request.id, slow());
      await there;
      for (let i = 0; i < 3; i++) {
        await s.pass(HOUR, s.a, s.b);
        expect(await s.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 0, released: 0 });
        expect((await s.room()).files).toBe(2);
      }
      resume();
      expect((await result).size).toBe(String(STORAGE_BATCH + 30));
      expect(await s.room()).toEqual({ files: 2, bytes: KEPT.length + STORAGE_BATCH + 30 });
      expect(await s.usage()).toEqual({ files: 2, storage: KEPT.length + STORAGE_BATCH + 30 });
    });

    it('whose lease ran out while it stalled, but which was not dead: the room goes back once, whoever tries', async () => {
      const s = await setUp(backing);
      let resume!: () => void;
      const paused = new Promise<void>((resolve) => (resume = resolve));
      const { there, reached } = crashPoint();
      async function* slow(): AsyncIterable<Uint8Array> {
        yield new Uint8Array(STORAGE_BATCH).fill(1);
        reached();
        await paused;
        yield new Uint8Array(STORAGE_BATCH).fill(3);
      }
      const result = send(s.a.core, s.request.id, slow());
      await there;
      await s.pass(LEASE_MS, s.b);
      expect(await s.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 1, released: 1 });
      expect(await s.room()).toEqual(s.received);
      // It goes on, takes room again for its next batch, finds its hold gone, and gives back what it took since.
      resume();
      await expect(result).rejects.toThrow();
      expect(await s.room()).toEqual(s.received);
      expect(await s.usage()).toEqual({ files: 1, storage: KEPT.length });
    });

    it("leaves a live instance's resumable upload alone while it stalls mid-append", async () => {
      const s = await setUp(backing);
      const length = 2 * STORAGE_BATCH;
      const made = await s.a.core.createRequestUpload.execute({ ...key(s.request.id), length, filename: 't.bin', mime: undefined });
      let resume!: () => void;
      const paused = new Promise<void>((resolve) => (resume = resolve));
      const { there, reached } = crashPoint();
      async function* slow(): AsyncIterable<Uint8Array> {
        yield new Uint8Array(STORAGE_BATCH).fill(1);
        reached();
        await paused;
        yield new Uint8Array(STORAGE_BATCH).fill(2);
      }
      const appended = s.a.core.appendUpload.execute({ actor: null, id: made.id, offset: 0, content: slow() });
      await there;
      for (let i = 0; i < 3; i++) {
        await s.pass(LEASE_MS, s.a, s.b);
        expect(await s.b.core.sweepDeadInstances.execute({})).toMatchObject({ instances: 0, released: 0 });
        expect(await s.room()).toEqual({ files: 2, bytes: KEPT.length + length });
      }
      resume();
      expect((await appended).fileId).toBe(made.id);
      expect(await s.room()).toEqual({ files: 2, bytes: KEPT.length + length });
      expect(await s.usage()).toEqual({ files: 2, storage: KEPT.length + length });
    });
  });
}

requestCrashSuite('memory', async () => ({ ports: {}, leases: new MemoryInstanceLeases() }));

describe.skipIf(!target)('on MongoDB', () => {
  const databases = useFreshDatabases(target!);
  requestCrashSuite('MongoDB', () => mongoRecords(databases.fresh()));
});
