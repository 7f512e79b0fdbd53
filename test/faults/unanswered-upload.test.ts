import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Ports } from '../../src/application/index.js';
import type { FileView } from '../../src/application/views.js';
import { bytes, makeCore, signUp } from '../support/core.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { openSocket, readUntilClosed, uploadHead } from '../support/raw-http.js';
import { filesOnDisk, until } from '../support/wait.js';

let t: HttpTest;
afterEach(async () => {
  const current = t as HttpTest | undefined;
  t = undefined as unknown as HttpTest;
  await current?.close();
});

const FILE_BYTES = 64 * 1024;
const CLOSING = '\r\n--B--\r\n';

/** Writes a whole upload (head, every byte of the file, the closing boundary) on a fresh socket. */
async function sendWholeUpload(token: string): Promise<Socket> {
  const socket = await openSocket(t.url);
  const probe = uploadHead(token, 0);
  // Content-Length counts what follows the HTTP head: the part's own head, the file and the closing boundary.
  const size = Buffer.byteLength(probe.slice(probe.indexOf('\r\n\r\n') + 4)) + FILE_BYTES + CLOSING.length;
  socket.write(uploadHead(token, size));
  socket.write(Buffer.alloc(FILE_BYTES, 7));
  socket.write(CLOSING);
  return socket;
}

const usageOf = async (token: string) => (await t.request('GET', '/api/usage/stats', { token })).body;

describe('an upload whose client half-closes after sending everything', () => {
  it('is answered with 201, and the file it announces is kept and counted', async () => {
    t = await makeHttp({ blobs: 'fs' });
    const token = await t.userToken('alice');
    const socket = await sendWholeUpload(token);
    const reply = readUntilClosed(socket, 5000);
    socket.end();
    const { status, body } = await reply;
    expect(status).toBe(201);
    const file = JSON.parse(body);
    expect(file.size).toBe(String(FILE_BYTES));
    expect((await t.request('GET', '/api/folder', { token })).body.files.map((f: { id: string }) => f.id)).toEqual([
      file.id,
    ]);
    expect(await usageOf(token)).toMatchObject({ files: { current: 1 }, storage: { current: String(FILE_BYTES) } });
  });
});

describe('an upload whose client is gone before the answer', () => {
  it('is undone like an aborted one: no record, no bytes, no counts', async () => {
    let reached!: () => void;
    const atInsert = new Promise<void>((resolve) => (reached = resolve));
    let proceed!: () => void;
    const released = new Promise<void>((resolve) => (proceed = resolve));
    // The record is written only once the client has gone: the upload completes with nobody left to answer.
    const holdInsert = (ports: Ports): Ports => ({
      ...ports,
      files: Object.assign(Object.create(ports.files) as Ports['files'], {
        insert: async (...args: Parameters<Ports['files']['insert']>) => {
          reached();
          await released;
          return ports.files.insert(...args);
        },
      }),
    });
    t = await makeHttp({ blobs: 'fs', wrapPorts: holdInsert });
    const token = await t.userToken('alice');
    const socket = await sendWholeUpload(token);
    await atInsert;
    // A reset, as a client that crashed or lost its network leaves; a plain close looks like a half-close and is
    // answered (the case above).
    socket.resetAndDestroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    proceed();

    await until(async () => (await filesOnDisk(t.ports.blobs)).length === 0, 'the blob to be removed');
    await until(async () => (await usageOf(token)).files.current === 0, 'the file count to be given back');
    expect(await usageOf(token)).toMatchObject({ files: { current: 0 }, storage: { current: '0' } });
    expect((await t.request('GET', '/api/folder', { token })).body.files).toEqual([]);
    expect(await t.ports.usage.staleHolds(new Date(t.clock.now().getTime() + 1))).toEqual([]);
  });
});

describe('the upload use case with an answer that does not go out', () => {
  it('removes the file and gives every count back; an answer that went out keeps it', async () => {
    const { core, ports } = makeCore();
    const alice = await signUp({ core, ports }, 'alice');
    const upload = (deliver: (file: FileView) => Promise<boolean>) =>
      core.uploadFile.execute({
        actor: alice.actor,
        folderId: null,
        name: null,
        filename: 'a.bin',
        mime: undefined,
        content: bytes('abc'),
        deliver,
      });
    await expect(upload(async () => false)).rejects.toMatchObject({ code: 'bad_request' });
    await expect(upload(() => Promise.reject(new Error('socket gone')))).rejects.toMatchObject({ code: 'bad_request' });
    expect(await ports.files.listByOwner(alice.userId)).toEqual([]);
    expect(await ports.usage.get(alice.userId)).toMatchObject({ files: 0, storage: 0 });
    const blobs = [];
    for await (const blob of ports.blobs.list()) blobs.push(blob);
    expect(blobs).toEqual([]);

    let told: unknown;
    const kept = await upload(async (file) => ((told = file), true));
    expect(told).toEqual(kept);
    expect(await ports.usage.get(alice.userId)).toMatchObject({ files: 1, storage: 3 });
  });
});
