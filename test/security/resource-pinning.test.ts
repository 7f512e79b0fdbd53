import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Ports } from '../../src/application/index.js';
import { REFUSED_GRACE_MS } from '../../src/adapters/http/server/connection-bound.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { openSocket, rawRequest, readUntilClosed, uploadHead } from '../support/raw-http.js';
import { filesOnDisk, until } from '../support/wait.js';

let t: HttpTest;
const sockets: Socket[] = [];
const timers: NodeJS.Timeout[] = [];
afterEach(async () => {
  for (const timer of timers.splice(0)) clearInterval(timer);
  for (const socket of sockets.splice(0)) socket.destroy();
  const current = t as HttpTest | undefined;
  t = undefined as unknown as HttpTest;
  await current?.close();
});

async function socketTo(url: string): Promise<Socket> {
  const socket = await openSocket(url);
  sockets.push(socket);
  return socket;
}

/** Writes `piece` every `ms` for as long as the socket takes it. */
function drip(socket: Socket, piece: string | Buffer, ms: number): void {
  timers.push(setInterval(() => socket.writable && socket.write(piece), ms));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a request body that arrives too slowly', () => {
  const BODY_TIMEOUT = 800;

  it('is cut within the deadline when a login body drips in a byte at a time, with 408', async () => {
    t = await makeHttp({ serverLimits: { bodyTimeout: BODY_TIMEOUT } });
    const socket = await socketTo(t.url);
    const reply = readUntilClosed(socket, 5000);
    socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"u',
    );
    // Never idle (a byte every 50 ms), never done: only the body deadline can end this.
    drip(socket, 'x', 50);
    const { status, body, headers, elapsedMs } = await reply;
    expect(status).toBe(408);
    expect(JSON.parse(body)).toEqual({ error: 'bad_request', message: expect.any(String) });
    expect(headers).toContain('X-Content-Type-Options: nosniff');
    expect(elapsedMs).toBeGreaterThanOrEqual(BODY_TIMEOUT - 50);
    expect(elapsedMs).toBeLessThan(BODY_TIMEOUT + 1500);
  });

  it('is cut as well when the app refused it unread and Node would drain it for ever', async () => {
    t = await makeHttp({ serverLimits: { bodyTimeout: BODY_TIMEOUT } });
    const socket = await socketTo(t.url);
    const chunks: string[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk.toString('latin1')));
    const closed = new Promise<number>((resolve) => {
      const started = Date.now();
      socket.once('close', () => resolve(Date.now() - started));
    });
    // No token: 401 at once, while the body keeps dripping into the connection.
    socket.write('POST /api/folder HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{');
    drip(socket, 'x', 50);
    expect(await closed).toBeLessThan(BODY_TIMEOUT + 1500);
    expect(chunks.join('')).toMatch(/^HTTP\/1\.1 401 /);
  });

  it('passes when it arrives in time, and the deadline leaves the next request alone', async () => {
    t = await makeHttp({ serverLimits: { bodyTimeout: BODY_TIMEOUT } });
    await t.user('alice');
    const socket = await socketTo(t.url);
    const reply = readUntilClosed(socket, 5000);
    const body = JSON.stringify({ username: 'alice', password: 'alice-password' });
    socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`,
    );
    await sleep(BODY_TIMEOUT / 4);
    socket.write(body.slice(5));
    expect((await reply).status).toBe(200);
  });
});

describe('an upload that arrives too slowly', () => {
  const pace = { uploadMinRate: 16 * 1024, uploadRateWindow: 1000 };

  it('is cut with 408 once a window brings less than the minimum rate, and leaves nothing', async () => {
    t = await makeHttp({ blobs: 'fs', serverLimits: pace });
    const token = await t.userToken('alice');
    const socket = await socketTo(t.url);
    const reply = readUntilClosed(socket, 6000);
    socket.write(uploadHead(token, 10_000_000));
    // 5 KiB/s: never idle, far below 16 KiB/s.
    drip(socket, Buffer.alloc(512, 7), 100);
    const { status, body, elapsedMs } = await reply;
    expect(status).toBe(408);
    expect(JSON.parse(body)).toMatchObject({ error: 'bad_request' });
    expect(elapsedMs).toBeLessThan(3 * pace.uploadRateWindow + 1500);
    await until(async () => (await filesOnDisk(t.ports.blobs)).length === 0, 'the partial upload to be removed');
    const usage = (await t.request('GET', '/api/usage/stats', { token })).body;
    expect(usage).toMatchObject({ files: { current: 0 }, storage: { current: '0' } });
  });

  it('passes at a good rate, a stall shorter than the window included', async () => {
    t = await makeHttp({ serverLimits: pace });
    const token = await t.userToken('alice');
    const socket = await socketTo(t.url);
    const reply = readUntilClosed(socket, 10_000);
    const CLOSING = '\r\n--B--\r\n';
    const probe = uploadHead(token, 0);
    const piece = Buffer.alloc(64 * 1024, 3);
    const pieces = 16;
    const length = Buffer.byteLength(probe.slice(probe.indexOf('\r\n\r\n') + 4)) + pieces * piece.length + CLOSING.length;
    socket.write(uploadHead(token, length));
    for (let i = 0; i < pieces; i++) {
      socket.write(piece);
      await sleep(i === 8 ? pace.uploadRateWindow * 0.4 : 40);
    }
    socket.end(CLOSING);
    const { status, body } = await reply;
    expect(status).toBe(201);
    expect(JSON.parse(body).size).toBe(String(pieces * piece.length));
  });

  it('is not judged while the server itself holds the body back', async () => {
    // A store that takes a second per piece: the app pauses the request, the client is not slow. The minimum (1 MiB/s)
    // is more than the buffers in between take in while the store waits.
    const demanding = { uploadMinRate: 1024 * 1024, uploadRateWindow: 300 };
    const slowStore = (ports: Ports): Ports => {
      const blobs = ports.blobs;
      return {
        ...ports,
        blobs: Object.assign(Object.create(blobs) as Ports['blobs'], {
          write: (content: AsyncIterable<Uint8Array>) =>
            blobs.write(
              (async function* () {
                for await (const piece of content) {
                  await sleep(1000);
                  yield piece;
                }
              })(),
            ),
        }),
      };
    };
    t = await makeHttp({ wrapPorts: slowStore, serverLimits: demanding });
    const token = await t.userToken('alice');
    const res = await t.upload(token, Buffer.alloc(2 * 1024 * 1024, 1));
    expect(res.status).toBe(201);
  });
});

describe('open connections of one address', () => {
  const BOUND = 50;
  const OPENED = 60;

  it(`are bounded: with room for ${BOUND}, ${OPENED} sockets get ${BOUND} answers and ${OPENED - BOUND} refusals`, async () => {
    t = await makeHttp({ serverLimits: { maxConnectionsPerAddress: BOUND } });
    const opened = [];
    for (let i = 0; i < OPENED; i++) opened.push(await socketTo(t.url));
    // Every socket is open before any request goes: which ones are refused depends only on the count.
    const replies = await Promise.all(
      opened.map((socket) => {
        const reply = readUntilClosed(socket, 5000);
        socket.write('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
        return reply;
      }),
    );
    const served = replies.filter((r) => r.status === 200);
    const refused = replies.filter((r) => r.status === 429);
    expect(served).toHaveLength(BOUND);
    expect(refused).toHaveLength(OPENED - BOUND);
    for (const reply of refused) {
      expect(JSON.parse(reply.body)).toEqual({ error: 'rate_limited', message: expect.any(String), retryAfter: 1 });
      expect(reply.headers).toContain('Retry-After: 1');
      expect(reply.headers).toContain('X-Content-Type-Options: nosniff');
    }
    // Closed connections are counted out: the address is served again.
    expect((await t.request('GET', '/health')).status).toBe(200);
  });

  it('refuses HEAD without a body, and closes a refused connection that sends nothing', async () => {
    t = await makeHttp({ serverLimits: { maxConnectionsPerAddress: 2 } });
    await socketTo(t.url);
    await socketTo(t.url);
    const head = await rawRequest(t.url, 'HEAD /health HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(head.status).toBe(429);
    expect(head.body).toBe('');
    const silent = await socketTo(t.url);
    const { elapsedMs, status } = await readUntilClosed(silent, REFUSED_GRACE_MS + 3000);
    expect(status).toBe(0);
    expect(elapsedMs).toBeLessThan(REFUSED_GRACE_MS + 1000);
  });
});

describe('uploads one user runs at once', () => {
  it('are bounded across all their tokens: the next one gets 429 with Retry-After until one ends', async () => {
    t = await makeHttp({ maxConcurrentUploads: 2 });
    const session = await t.userToken('alice');
    const uploader = (await t.request('POST', '/api/token', { token: session, json: { name: 'cli' } })).body.token;
    const openHolds = async () => (await t.ports.usage.staleHolds(new Date(t.clock.now().getTime() + 1))).length;

    // Two uploads under way, one per token, each stalled halfway through its file.
    const stalled = [];
    for (const token of [session, uploader]) {
      const socket = await socketTo(t.url);
      socket.write(uploadHead(token, 1_000_000));
      socket.write(Buffer.alloc(1000, 1));
      stalled.push(socket);
    }
    await until(async () => (await openHolds()) === 2, 'both uploads to be under way');

    for (const token of [session, uploader]) {
      const refused = await t.upload(token, 'one too many');
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: 'rate_limited', message: expect.any(String), retryAfter: 5 });
      expect(refused.headers.get('retry-after')).toBe('5');
    }
    // Another user is not affected.
    expect((await t.upload(await t.userToken('bob'), 'bob')).status).toBe(201);

    stalled[0]!.destroy();
    await until(async () => (await openHolds()) === 1, 'the aborted upload to give its slot back');
    expect((await t.upload(uploader, 'now there is room')).status).toBe(201);
    const usage = (await t.request('GET', '/api/usage/stats', { token: session })).body;
    expect(usage.files.current).toBe(2);
  });
});
