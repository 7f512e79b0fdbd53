import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { MongoClient, type Db } from 'mongodb';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FsBlobStore } from '../../src/adapters/fs-blob-store/fs-blob-store.js';
import {
  COLLECTIONS,
  MongoFileRepository,
  MongoUploadSessionRepository,
  MongoUsageCounter,
} from '../../src/adapters/mongodb/index.js';
import { ADMIN, dropDatabases, freshDbName } from '../mongodb/mongo-app.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from '../support/mongo.js';
import { freePort, openSocket, uploadHead } from '../support/raw-http.js';
import { tempDir } from '../support/temp.js';
import { MIB, adminLogin, downloadSha256, sampleBytes, sha256 } from '../support/tus-client.js';
import { filesUnder } from '../support/wait.js';

const ROOT = join(import.meta.dirname, '..', '..');
const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);
afterAll(() => target?.stop());

/** Leases of 2 s renewed every third of a second, a sweep every half second: a test waits seconds, not a minute. */
const LEASES = { INSTANCE_LEASE_SECONDS: '2', RECOVERY_SWEEP_SECONDS: '0.5', MAX_CONCURRENT_UPLOADS: '2' };

const children: ChildProcess[] = [];
const sockets: Socket[] = [];
const databases: string[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const child of children.splice(0)) child.kill('SIGKILL');
});
afterAll(() => (target ? dropDatabases(target.uri, databases) : undefined));

interface Child {
  url: string;
  child: ChildProcess;
  exited: Promise<void>;
}

/** `npm start`'s entry point in a process of its own, as production runs it; serving once /health answers. */
async function spawnCoffer(env: Record<string, string>): Promise<Child> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      ...LEASES,
      ...env,
    },
    stdio: 'ignore',
  });
  children.push(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  // The child compiles TypeScript as it starts, which takes a while on a busy machine.
  const deadline = Date.now() + 60_000;
  while (!(await fetch(`${url}/health`).then((r) => r.ok, () => false))) {
    if (Date.now() > deadline) throw new Error('the child server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, child, exited };
}

async function killed(instance: Child): Promise<number> {
  instance.child.kill('SIGKILL');
  await instance.exited;
  return Date.now();
}

/** What the database and the disk hold, read by the test itself rather than through a server. */
function storage(db: Db, dataDir: string) {
  const usage = new MongoUsageCounter(db);
  const files = new MongoFileRepository(db);
  const uploads = new MongoUploadSessionRepository(db);
  const blobs = new FsBlobStore({ dir: dataDir });
  return {
    usage,
    async userId(): Promise<string> {
      const user = await db.collection<{ _id: string }>(COLLECTIONS.users).findOne({ usernameLower: ADMIN.username });
      return user!._id;
    },
    /** The instance whose lease names this process. */
    async instanceOf(pid: number): Promise<string> {
      const lease = await db
        .collection<{ _id: string; process: string }>(COLLECTIONS.instanceLeases)
        .findOne({ process: { $regex: `^[0-9a-f]{8}-${pid}-` } });
      return lease!._id;
    },
    async counters(userId: string) {
      const { files: count, storage: bytes } = await usage.get(userId);
      return { files: count, storage: bytes };
    },
    /** Counters equal what exists: the records, plus what the holds of uploads still under way hold. */
    async expected(userId: string) {
      const stored = await files.listByOwner(userId);
      const held = (await usage.staleHolds(new Date(8.64e15))).filter((hold) => hold.userId === userId);
      return {
        files: stored.length + held.reduce((sum, hold) => sum + (hold.amounts.files ?? 0), 0),
        storage:
          stored.reduce((sum, f) => sum + f.size, 0) + held.reduce((sum, hold) => sum + (hold.amounts.storage ?? 0), 0),
      };
    },
    async freeSlots(userId: string, bound: number): Promise<number> {
      let opened = 0;
      const probe = (i: number) => ({ id: `probe${i}`, at: new Date(), by: 'probe' });
      while (opened < bound && (await usage.openHold(userId, probe(opened), bound))) opened++;
      for (let i = 0; i < opened; i++) await usage.releaseHold(userId, `probe${i}`);
      await usage.forgetWriters(userId, ['probe']);
      return opened;
    },
    /** Blobs no file and no resumable upload names, and temporary files, on disk. */
    async leftovers(): Promise<{ unnamed: string[]; tmp: string[] }> {
      const keys: string[] = [];
      for await (const entry of blobs.list()) keys.push(entry.key);
      const [named, parts] = await Promise.all([files.referencedBlobKeys(keys), uploads.referencedPartKeys(keys)]);
      return { unnamed: keys.filter((k) => !named.has(k) && !parts.has(k)), tmp: await filesUnder(join(dataDir, 'tmp')) };
    },
  };
}

async function until(ms: number, check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function startUpload(url: string, token: string, data: Buffer, sent: number): Promise<Socket> {
  const head = uploadHead(token, 0);
  const length = Buffer.byteLength(head.slice(head.indexOf('--B'))) + data.length + '\r\n--B--\r\n'.length;
  const socket = await openSocket(url);
  sockets.push(socket);
  socket.write(uploadHead(token, length));
  socket.write(data.subarray(0, sent));
  return socket;
}

async function startAppend(url: string, token: string, data: Buffer, sent: number): Promise<{ location: string }> {
  const created = await fetch(`${url}/api/upload/tus`, {
    method: 'POST',
    headers: { authorization: `token ${token}`, 'tus-resumable': '1.0.0', 'upload-length': String(data.length) },
  });
  const location = created.headers.get('location')!;
  const socket = await openSocket(url);
  sockets.push(socket);
  socket.write(
    [
      `PATCH ${location} HTTP/1.1`,
      'Host: 127.0.0.1',
      `Authorization: token ${token}`,
      'Tus-Resumable: 1.0.0',
      'Content-Type: application/offset+octet-stream',
      'Upload-Offset: 0',
      `Content-Length: ${data.length}`,
      '',
      '',
    ].join('\r\n'),
  );
  socket.write(data.subarray(0, sent));
  return { location };
}

async function upload(url: string, token: string, data: Uint8Array): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([data]), 'f.bin');
  const res = await fetch(`${url}/api/file`, { method: 'POST', headers: { authorization: `token ${token}` }, body: form });
  await res.arrayBuffer();
  return res.status;
}

describe.skipIf(!target)('an instance killed with SIGKILL (MongoDB, shared DATA_DIR)', () => {
  it('mid-upload: the surviving instance repairs counters, slots and bytes, and its own slow upload goes on', async () => {
    const dbName = freshDbName();
    databases.push(dbName);
    const dataDir = tempDir('kill');
    // Three slots: the slow upload, and the two the kill cuts.
    const env = { MONGODB_URI: target!.uri, MONGODB_DB: dbName, BLOB_STORE: 'fs', DATA_DIR: dataDir, MAX_CONCURRENT_UPLOADS: '3' };
    const a = await spawnCoffer(env);
    const b = await spawnCoffer(env);
    const client = await MongoClient.connect(target!.uri);
    try {
      const db = storage(client.db(dbName), dataDir);
      const token = await adminLogin(b.url);
      const userId = await db.userId();
      const aId = await db.instanceOf(a.child.pid!);
      expect(await upload(b.url, token, Buffer.from('kept bytes'))).toBe(201);

      // Live on b: a slow upload, paused through the kill and the repair.
      const slowData = sampleBytes(3 * MIB, 2);
      const slow = await startUpload(b.url, token, slowData, 1.5 * MIB);
      await until(10_000, async () => (await db.counters(userId)).storage >= MIB + 10, 'the slow upload to reserve');
      // On a: a multipart upload and a resumable append, both cut by the kill.
      await startUpload(a.url, token, sampleBytes(4 * MIB, 3), 2.5 * MIB);
      const tusData = sampleBytes(8 * MIB, 4);
      const { location } = await startAppend(a.url, token, tusData, 3 * MIB);
      await until(10_000, async () => (await db.counters(userId)).storage >= 5 * MIB, 'both cut uploads to reserve');

      const killedAt = await killed(a);
      await until(
        60_000,
        async () => (await db.usage.workOf([aId])).every((work) => work.holds.length === 0),
        'the killed instance’s holds to be given back',
      );
      console.log(`SIGKILL mid-upload (MongoDB): repaired ${Date.now() - killedAt} ms after the kill (lease 2 s)`);
      // Left on disk: the slow upload's temporary file (its writer, b, lives), not the killed writes'.
      const ofB = (name: string) => name.split('-')[1] === String(b.child.pid);
      await until(
        10_000,
        async () => (await db.leftovers()).tmp.every(ofB),
        'the killed writes’ temporary files to go',
      );

      expect(await db.counters(userId)).toEqual(await db.expected(userId));
      // Left: the slow upload's hold (on b), and the resumable upload's, which lives on with its file count only.
      const holds = await db.usage.staleHolds(new Date(8.64e15));
      expect(holds).toHaveLength(2);
      expect(await db.counters(userId)).toMatchObject({ files: 3 });
      expect(await db.freeSlots(userId, 3)).toBe(2);
      const { unnamed, tmp } = await db.leftovers();
      expect(unnamed).toEqual([]);
      expect(tmp).toHaveLength(1);
      expect(tmp.every(ofB)).toBe(true);

      // The slow upload was never touched, and the resumable one resumes on b.
      const answer = new Promise<string>((resolve) => {
        const chunks: Buffer[] = [];
        slow.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          const text = Buffer.concat(chunks).toString();
          if (text.includes('}')) resolve(text);
        });
      });
      slow.write(slowData.subarray(1.5 * MIB));
      slow.write('\r\n--B--\r\n');
      expect(await answer).toMatch(/^HTTP\/1\.1 201/);
      const tus = { authorization: `token ${token}`, 'tus-resumable': '1.0.0' };
      const head = await fetch(b.url + location, { method: 'HEAD', headers: tus });
      expect(head.headers.get('upload-offset')).toBe('0');
      const resumed = await fetch(b.url + location, {
        method: 'PATCH',
        headers: { ...tus, 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' },
        body: tusData,
      });
      expect(resumed.status).toBe(204);
      expect(await downloadSha256(b.url, resumed.headers.get('x-file-id')!, token)).toEqual({
        hash: sha256(tusData),
        size: tusData.length,
      });

      expect(await db.counters(userId)).toEqual({
        files: 3,
        storage: 'kept bytes'.length + slowData.length + tusData.length,
      });
      expect(await db.usage.staleHolds(new Date(8.64e15))).toEqual([]);
      expect(await db.freeSlots(userId, 3)).toBe(3);
      expect(await db.leftovers()).toEqual({ unnamed: [], tmp: [] });
    } finally {
      await client.close();
    }
  }, 180_000);

  it('mid-upload, restarted a second later: the new process repairs everything before it serves', async () => {
    const dbName = freshDbName();
    databases.push(dbName);
    const dataDir = tempDir('kill');
    // A long lease: only the restart, which sees the old process gone, can repair this soon.
    const env = { MONGODB_URI: target!.uri, MONGODB_DB: dbName, BLOB_STORE: 'fs', DATA_DIR: dataDir, INSTANCE_LEASE_SECONDS: '600' };
    const a = await spawnCoffer(env);
    const client = await MongoClient.connect(target!.uri);
    try {
      const db = storage(client.db(dbName), dataDir);
      const token = await adminLogin(a.url);
      const userId = await db.userId();
      expect(await upload(a.url, token, Buffer.from('kept bytes'))).toBe(201);
      await startUpload(a.url, token, sampleBytes(4 * MIB, 3), 2.5 * MIB);
      await until(10_000, async () => (await db.counters(userId)).storage >= 2 * MIB, 'the cut upload to reserve');
      await killed(a);
      await new Promise((r) => setTimeout(r, 1000));

      await spawnCoffer(env);
      expect(await db.counters(userId)).toEqual({ files: 1, storage: 'kept bytes'.length });
      expect(await db.usage.staleHolds(new Date(8.64e15))).toEqual([]);
      expect(await db.freeSlots(userId, 2)).toBe(2);
      expect(await db.leftovers()).toEqual({ unnamed: [], tmp: [] });
    } finally {
      await client.close();
    }
  }, 180_000);

  it('mid folder delete of 200 files, at several points: the survivor finishes it, or a repeated DELETE does', async () => {
    const dbName = freshDbName();
    databases.push(dbName);
    const dataDir = tempDir('kill');
    const env = { MONGODB_URI: target!.uri, MONGODB_DB: dbName, BLOB_STORE: 'fs', DATA_DIR: dataDir, LIMIT_FILES: '5000' };
    const b = await spawnCoffer(env);
    const client = await MongoClient.connect(target!.uri);
    try {
      const db = storage(client.db(dbName), dataDir);
      const token = await adminLogin(b.url);
      const userId = await db.userId();
      const auth = { authorization: `token ${token}` };
      const json = { ...auth, 'content-type': 'application/json' };
      // Kill points: at once, while files go, while folders go (the delays are where the kill lands, not what is asserted).
      for (const delayMs of [0, 40, 150, 400]) {
        const root = (await (
          await fetch(`${b.url}/api/folder`, { method: 'POST', headers: json, body: JSON.stringify({ name: `big${delayMs}` }) })
        ).json()) as { id: string };
        const sub = (await (
          await fetch(`${b.url}/api/folder`, {
            method: 'POST',
            headers: json,
            body: JSON.stringify({ name: 'sub', parentId: root.id }),
          })
        ).json()) as { id: string };
        for (let i = 0; i < 200; i++) {
          const form = new FormData();
          form.append('folderId', i % 2 === 0 ? root.id : sub.id);
          form.append('file', new Blob([`file ${i} `.repeat(1 + (i % 5))]), `f${i}.txt`);
          const res = await fetch(`${b.url}/api/file`, { method: 'POST', headers: auth, body: form });
          expect(res.status).toBe(201);
          await res.arrayBuffer();
        }
        const a = await spawnCoffer(env);
        const deleting = fetch(`${a.url}/api/folder/${root.id}`, { method: 'DELETE', headers: auth }).catch(() => null);
        await new Promise((r) => setTimeout(r, delayMs));
        const aId = await db.instanceOf(a.child.pid!);
        const killedAt = await killed(a);
        await deleting;
        await until(
          60_000,
          async () => (await db.usage.workOf([aId])).every((work) => work.holds.length === 0),
          'the killed delete to be finished',
        );
        console.log(`SIGKILL ${delayMs} ms into a folder delete (MongoDB): finished ${Date.now() - killedAt} ms after the kill`);
        expect(await db.counters(userId)).toEqual(await db.expected(userId));
        expect(await db.leftovers()).toEqual({ unnamed: [], tmp: [] });
        // Whatever the kill left (a delete finished, or one that never began), repeating it on b ends with no tree.
        const again = await fetch(`${b.url}/api/folder/${root.id}`, { method: 'DELETE', headers: auth });
        expect([204, 404]).toContain(again.status);
        expect(await db.counters(userId)).toEqual(await db.expected(userId));
        const left = await client.db(dbName).collection(COLLECTIONS.files).countDocuments({ ownerId: userId });
        expect(left).toBe(0);
        expect(await db.leftovers()).toEqual({ unnamed: [], tmp: [] });
        expect(await db.usage.staleHolds(new Date(8.64e15))).toEqual([]);
      }
    } finally {
      await client.close();
    }
  }, 600_000);
});
