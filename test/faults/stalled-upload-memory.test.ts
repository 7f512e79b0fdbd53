import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { piecesOf, type BlobPiece, type Ports } from '../../src/application/index.js';
import { STALL_FLUSH_MS, STORAGE_BATCH } from '../../src/application/files/storage-meter.js';
import { makeCore, signUp } from '../support/core.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { openSocket, uploadHead } from '../support/raw-http.js';
import { until } from '../support/wait.js';

const CHUNK = 64 * 1024;

/** A blob store that records every piece it is handed, as it is handed (before any of it is written). */
function recordingPieces(ports: Ports, pieces: number[]): Ports {
  const blobs = ports.blobs;
  return {
    ...ports,
    blobs: Object.assign(Object.create(blobs) as Ports['blobs'], {
      write: (content: AsyncIterable<BlobPiece>) =>
        blobs.write(
          (async function* () {
            for await (const piece of content) {
              pieces.push(piecesOf(piece).reduce((bytes, chunk) => bytes + chunk.byteLength, 0));
              yield piece;
            }
          })(),
        ),
    }),
  };
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('the storage meter of a stalled upload', () => {
  it('passes on what it gathered once no chunk came for a moment, holding nothing while the upload waits', async () => {
    const pieces: number[] = [];
    const { core, ports } = makeCore({ wrapPorts: (p) => recordingPieces(p, pieces) });
    const alice = await signUp({ core, ports }, 'alice');
    let resume!: () => void;
    const stalled = new Promise<void>((resolve) => (resume = resolve));
    // 14 chunks are 896 KiB, less than a batch: before, they stayed in the meter for as long as the client waited.
    const sent = 14 * CHUNK;
    async function* stallingClient(): AsyncIterable<Uint8Array> {
      for (let i = 0; i < sent / CHUNK; i++) yield new Uint8Array(CHUNK).fill(i);
      await stalled;
      yield new Uint8Array(10).fill(1);
    }
    const upload = core.uploadFile.execute({
      actor: alice.actor,
      folderId: null,
      name: null,
      filename: 'slow.bin',
      mime: undefined,
      content: stallingClient(),
    });
    await until(() => sum(pieces) === sent, 'the gathered bytes to reach the store while the upload is stalled');
    const heldByMeter = sent - sum(pieces);
    expect(heldByMeter).toBe(0);
    // The gathered bytes are reserved as they go on, so the counters never lag behind what was written.
    expect((await ports.usage.get(alice.userId)).storage).toBe(sent);
    resume();
    const file = await upload;
    expect(file.size).toBe(String(sent + 10));
    expect(sum(pieces)).toBe(sent + 10);
  });

  it('keeps whole 1 MiB batches for an upload whose chunks keep coming', async () => {
    const pieces: number[] = [];
    const { core, ports } = makeCore({ wrapPorts: (p) => recordingPieces(p, pieces) });
    const alice = await signUp({ core, ports }, 'alice');
    async function* fastClient(): AsyncIterable<Uint8Array> {
      for (let i = 0; i < (4 * STORAGE_BATCH) / CHUNK; i++) {
        // Network chunks a little apart, but never as long as the stall threshold.
        if (i % 4 === 0) await new Promise((resolve) => setTimeout(resolve, STALL_FLUSH_MS / 10));
        yield new Uint8Array(CHUNK).fill(i);
      }
    }
    const file = await core.uploadFile.execute({
      actor: alice.actor,
      folderId: null,
      name: null,
      filename: 'fast.bin',
      mime: undefined,
      content: fastClient(),
    });
    expect(file.size).toBe(String(4 * STORAGE_BATCH));
    expect(pieces).toEqual([STORAGE_BATCH, STORAGE_BATCH, STORAGE_BATCH, STORAGE_BATCH]);
  });
});

describe('stalled uploads over HTTP', () => {
  let t: HttpTest;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await t.close();
  });

  it('hold none of their bytes in the meter while they stall, however many there are', async () => {
    const pieces: number[] = [];
    t = await makeHttp({ wrapPorts: (p) => recordingPieces(p, pieces) });
    const token = await t.userToken('alice');
    const UPLOADS = 8;
    const SENT = 768 * 1024;
    for (let i = 0; i < UPLOADS; i++) {
      const socket = await openSocket(t.url);
      sockets.push(socket);
      socket.write(uploadHead(token, 10 * 1024 * 1024));
      socket.write(Buffer.alloc(SENT, i));
    }
    await until(() => sum(pieces) === UPLOADS * SENT, 'every stalled upload to hand its bytes on');
    expect(UPLOADS * SENT - sum(pieces)).toBe(0);
  });
});
