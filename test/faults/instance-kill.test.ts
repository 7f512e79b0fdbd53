import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Core, Ports } from '../../src/application/index.js';
import type { StoredFile } from '../../src/domain/index.js';
import { loadConfig } from '../../src/boot/config.js';
import { LeaseKeeper } from '../../src/boot/instance-lease.js';
import { startCoffer, type RunningCoffer } from '../../src/boot/server.js';
import { CHEAP_ARGON2 } from '../support/core.js';
import { killable } from '../support/killable.js';
import { openSocket, uploadHead } from '../support/raw-http.js';
import { MIB, adminLogin, downloadSha256, sampleBytes, sha256 } from '../support/tus-client.js';
import { ADMIN } from '../mongodb/mongo-app.js';

/** Short leases so that a test waits a second or two, not the 30 s of production; what is asserted is numbers. */
const ENV = {
  PERSISTENCE: 'memory',
  HOST: '127.0.0.1',
  PORT: '1',
  LOG_LEVEL: 'silent',
  ADMIN_USERNAME: ADMIN.username,
  ADMIN_PASSWORD: ADMIN.password,
  INSTANCE_LEASE_SECONDS: '1',
  RECOVERY_SWEEP_SECONDS: '0.2',
  MAX_CONCURRENT_UPLOADS: '2',
};

const running: RunningCoffer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const coffer of running.splice(0)) await coffer.close();
});

/**
 * Two instances on one in-memory database (as two processes on one MongoDB); `a` can be killed: from then on it does
 * nothing, its connections drop and its lease is no longer renewed, as after SIGKILL.
 */
async function twoInstances() {
  const config = { ...loadConfig(ENV), port: 0 };
  const killer = killable();
  const options = { argon2: CHEAP_ARGON2, blobStore: 'memory' as const, webDir: null };
  const a = await startCoffer(config, { ...options, wrapPorts: killer.wrap });
  const b = await startCoffer(config, { ...options, memoryOf: a.container });
  running.push(b);
  const ports = b.container.get<Ports>(Ports);
  const token = await adminLogin(b.url);
  const userId = (await ports.users.findByUsername(ADMIN.username))!.id;
  const kill = () => {
    killer.kill();
    a.container.get(LeaseKeeper).halt();
    a.server.closeAllConnections();
    a.server.close();
  };
  return { a, b, ports, token, userId, kill, aId: a.container.get(LeaseKeeper).id() };
}

/** Counters equal what exists: the records, plus what the holds of uploads still under way hold. */
async function expectedUsage(ports: Ports, userId: string): Promise<{ files: number; storage: number }> {
  const files = await ports.files.listByOwner(userId);
  const held = (await ports.usage.staleHolds(new Date(8.64e15))).filter((hold) => hold.userId === userId);
  return {
    files: files.length + held.reduce((sum, hold) => sum + (hold.amounts.files ?? 0), 0),
    storage: files.reduce((sum, f) => sum + f.size, 0) + held.reduce((sum, hold) => sum + (hold.amounts.storage ?? 0), 0),
  };
}

async function counters(ports: Ports, userId: string): Promise<{ files: number; storage: number }> {
  const { files, storage } = await ports.usage.get(userId);
  return { files, storage };
}

/** Upload slots free: as many holds as the bound allows can be opened (and are closed again). */
async function freeSlots(ports: Ports, userId: string, bound: number): Promise<number> {
  let opened = 0;
  while (opened < bound && (await ports.usage.openHold(userId, { id: `probe${opened}`, at: new Date(), by: 'probe' }, bound))) {
    opened++;
  }
  for (let i = 0; i < opened; i++) await ports.usage.releaseHold(userId, `probe${i}`);
  await ports.usage.forgetWriters(userId, ['probe']);
  return opened;
}

/** Every stored blob is one a record names (a file, or a part of a resumable upload under way). */
async function unnamedBlobs(ports: Ports): Promise<string[]> {
  const keys = (ports.blobs as unknown as { keys(): string[] }).keys();
  const [files, parts] = await Promise.all([
    ports.files.referencedBlobKeys(keys),
    ports.uploads.referencedPartKeys(keys),
  ]);
  return keys.filter((key) => !files.has(key) && !parts.has(key));
}

/** Polls until `check` holds; resolves to the milliseconds it took. */
async function within(ms: number, check: () => Promise<boolean>, what: string): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - started;
}

async function upload(url: string, token: string, data: Uint8Array): Promise<{ status: number; id?: string }> {
  const form = new FormData();
  form.append('file', new Blob([data]), 'f.bin');
  const res = await fetch(`${url}/api/file`, { method: 'POST', headers: { authorization: `token ${token}` }, body: form });
  const body = (await res.json()) as { id?: string };
  return { status: res.status, id: body.id };
}

/** Starts a multipart upload of `total` bytes over a raw socket and sends the first `sent`; the rest is up to the test. */
async function startUpload(url: string, token: string, data: Buffer, sent: number): Promise<Socket> {
  const tail = '\r\n--B--\r\n';
  const head = uploadHead(token, 0);
  const length = Buffer.byteLength(head.slice(head.indexOf('--B'))) + data.length + tail.length;
  const socket = await openSocket(url);
  sockets.push(socket);
  socket.write(uploadHead(token, length));
  socket.write(data.subarray(0, sent));
  return socket;
}

const held = async (ports: Ports, userId: string) => (await ports.usage.get(userId)).storage;

describe('an instance killed in the middle of uploads (memory, two instances)', () => {
  it('a multipart upload: the other instance gives back its counts and slot, and a live slow upload is untouched', async () => {
    const { b, ports, token, userId, kill, a, aId } = await twoInstances();
    expect((await upload(b.url, token, Buffer.from('kept bytes'))).status).toBe(201);

    // A slow upload on the instance that lives: 1.5 MiB, then a pause that lasts through the kill and the repair.
    const slowData = sampleBytes(3 * MIB, 2);
    const slow = await startUpload(b.url, token, slowData, 1.5 * MIB);
    await within(5000, async () => (await held(ports, userId)) >= 'kept bytes'.length + MIB, 'the slow upload to reserve');
    // The upload the kill cuts: 2.5 MiB of 4 sent to the instance that dies.
    const cut = await startUpload(a.url, token, sampleBytes(4 * MIB, 3), 2.5 * MIB);
    await within(5000, async () => (await held(ports, userId)) >= 'kept bytes'.length + 3 * MIB, 'the cut upload to reserve');
    // Both slots are taken: a third upload is refused.
    expect((await upload(b.url, token, Buffer.from('third'))).status).toBe(429);

    kill();
    cut.destroy();
    const repairMs = await within(
      10_000,
      async () => (await ports.usage.workOf([aId])).every((work) => work.holds.length === 0),
      'the dead instance’s hold to be given back',
    );
    console.log(`multipart upload cut by a kill: repaired ${repairMs} ms after the kill (lease 1 s, sweep every 0.2 s)`);

    expect(await counters(ports, userId)).toEqual(await expectedUsage(ports, userId));
    expect(await ports.usage.workOf([aId])).toEqual([]);
    // The dead upload's slot is free again; the slow upload keeps the other.
    expect(await freeSlots(ports, userId, 2)).toBe(1);
    const third = await upload(b.url, token, Buffer.from('third'));
    expect(third.status).toBe(201);

    // The slow upload was never touched: it completes, whole.
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
    const reply = await answer;
    expect(reply).toMatch(/^HTTP\/1\.1 201/);
    const slowId = /"id":"([^"]+)"/.exec(reply)![1]!;
    expect(await downloadSha256(b.url, slowId, token)).toEqual({ hash: sha256(slowData), size: slowData.length });

    const files = await ports.files.listByOwner(userId);
    expect(files).toHaveLength(3);
    expect(await counters(ports, userId)).toEqual({
      files: 3,
      storage: files.reduce((sum: number, f: StoredFile) => sum + f.size, 0),
    });
    expect(await ports.usage.staleHolds(new Date(8.64e15))).toEqual([]);
    expect(await freeSlots(ports, userId, 2)).toBe(2);
    expect(await unnamedBlobs(ports)).toEqual([]);
    expect((await b.container.get<Core>(Core).reconcileUsage.execute({ actor: null, fix: false })).drifted).toEqual([]);
  }, 30_000);

  it('a resumable append: its bytes and slot come back, and the upload resumes on the other instance', async () => {
    const { b, ports, token, userId, kill, a, aId } = await twoInstances();
    const data = sampleBytes(8 * MIB, 4);
    const tus = { authorization: `token ${token}`, 'tus-resumable': '1.0.0' };
    const created = await fetch(`${a.url}/api/upload/tus`, {
      method: 'POST',
      headers: { ...tus, 'upload-length': String(data.length) },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const socket = await openSocket(a.url);
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
    socket.write(data.subarray(0, 3 * MIB));
    await within(5000, async () => (await held(ports, userId)) >= 2 * MIB, 'the append to reserve bytes');
    expect(await freeSlots(ports, userId, 2)).toBe(1);

    kill();
    socket.destroy();
    const repairMs = await within(
      10_000,
      async () => (await ports.usage.workOf([aId])).every((work) => work.holds.length === 0),
      'the dead append’s hold to be given back',
    );
    console.log(`tus append cut by a kill: repaired ${repairMs} ms after the kill (lease 1 s, sweep every 0.2 s)`);

    // The upload lives on, holding its file count; nothing of the cut append is counted, and its slot is free.
    expect(await counters(ports, userId)).toEqual({ files: 1, storage: 0 });
    expect(await counters(ports, userId)).toEqual(await expectedUsage(ports, userId));
    expect(await freeSlots(ports, userId, 2)).toBe(2);
    expect(await unnamedBlobs(ports)).toEqual([]);

    const head = await fetch(b.url + location, { method: 'HEAD', headers: tus });
    expect(head.headers.get('upload-offset')).toBe('0');
    const resumed = await fetch(b.url + location, {
      method: 'PATCH',
      headers: { ...tus, 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' },
      body: data,
    });
    expect(resumed.status).toBe(204);
    const fileId = resumed.headers.get('x-file-id')!;
    expect(await downloadSha256(b.url, fileId, token)).toEqual({ hash: sha256(data), size: data.length });
    expect(await counters(ports, userId)).toEqual({ files: 1, storage: data.length });
    expect(await ports.usage.staleHolds(new Date(8.64e15))).toEqual([]);
    expect(await freeSlots(ports, userId, 2)).toBe(2);
    expect(await unnamedBlobs(ports)).toEqual([]);
    expect((await b.container.get<Core>(Core).reconcileUsage.execute({ actor: null, fix: false })).drifted).toEqual([]);
  }, 30_000);
});
