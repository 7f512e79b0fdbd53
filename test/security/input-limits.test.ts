import { afterEach, describe, expect, it } from 'vitest';
import { SERVER_LIMITS } from '../../src/adapters/http/server/http-server.js';
import { AUTH_JSON_LIMIT, JSON_LIMIT } from '../../src/adapters/http/json-body.js';
import { loadConfig } from '../../src/boot/config.js';
import { MAX_FOLDER_DEPTH } from '../../src/domain/index.js';
import { createLogger } from '../../src/boot/logger.js';
import { startCoffer } from '../../src/boot/server.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { openSocket, rawRequest, readUntilClosed } from '../support/raw-http.js';

let t: HttpTest;
afterEach(async () => {
  const current = t as HttpTest | undefined;
  t = undefined as unknown as HttpTest;
  await current?.close();
});

/** A JSON object body of exactly `size` bytes: a password padded to fit. */
function credentialsOfSize(size: number): string {
  const frame = JSON.stringify({ username: 'alice', password: '' });
  return JSON.stringify({ username: 'alice', password: 'p'.repeat(size - frame.length) });
}

const post = (path: string, body: string, token?: string) =>
  t.request('POST', path, {
    body,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `token ${token}` } : {}) },
  });

describe('body caps', () => {
  it('caps auth bodies at 16 KiB and every other JSON body at 1 MiB', () => {
    expect(AUTH_JSON_LIMIT).toBe(16 * 1024);
    expect(JSON_LIMIT).toBe(1024 * 1024);
  });

  it('reads a login or registration body of 16 KiB, and refuses one byte more with 413', async () => {
    t = await makeHttp({ registration: 'open' });
    for (const path of ['/api/auth/login', '/api/auth/register']) {
      const fits = await post(path, credentialsOfSize(AUTH_JSON_LIMIT));
      expect(Buffer.byteLength(credentialsOfSize(AUTH_JSON_LIMIT))).toBe(AUTH_JSON_LIMIT);
      expect(fits.status, path).not.toBe(413);
      const over = await post(path, credentialsOfSize(AUTH_JSON_LIMIT + 1));
      expect(over.status, path).toBe(413);
      expect(over.body).toEqual({ error: 'payload_too_large', message: expect.stringContaining(String(AUTH_JSON_LIMIT)), maxBytes: AUTH_JSON_LIMIT });
    }
  });

  it('reads a 1 MiB JSON body elsewhere, and refuses one byte more with 413', async () => {
    t = await makeHttp();
    const token = await t.userToken('alice');
    const frame = JSON.stringify({ name: '' });
    const body = (size: number) => JSON.stringify({ name: 'n'.repeat(size - frame.length) });
    const fits = await post('/api/folder', body(JSON_LIMIT), token);
    expect(fits.status).toBe(201);
    expect([...fits.body.name]).toHaveLength(255);
    const over = await post('/api/folder', body(JSON_LIMIT + 1), token);
    expect(over.status).toBe(413);
    expect((await t.request('GET', '/api/usage/stats', { token })).body.folders.current).toBe(1);
  });

  it('refuses a body announced as too large before any of it arrives', async () => {
    t = await makeHttp();
    const reply = await rawRequest(
      t.url,
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Content-Length: 104857600\r\nConnection: close\r\n\r\n{"username":',
      5000,
    );
    expect(reply.status).toBe(413);
    expect(reply.elapsedMs).toBeLessThan(4000);
    expect(reply.headers).toContain('X-Content-Type-Options: nosniff');
  });

  it('stops reading a chunked body at the cap', async () => {
    t = await makeHttp();
    const socket = await openSocket(t.url);
    const reply = readUntilClosed(socket, 5000);
    socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n',
    );
    const chunk = 'a'.repeat(8 * 1024);
    for (let i = 0; i < 4 && !socket.destroyed; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    expect((await reply).status).toBe(413);
  });
});

describe('request heads', () => {
  const withHeader = (bytes: number) =>
    `GET /health HTTP/1.1\r\nHost: x\r\nX-Padding: ${'h'.repeat(bytes)}\r\nConnection: close\r\n\r\n`;

  it('answers a head over 16 KiB with 431 in the one error shape, and serves one under it', async () => {
    t = await makeHttp();
    const small = await rawRequest(t.url, withHeader(12 * 1024));
    expect(small.status).toBe(200);
    const big = await rawRequest(t.url, withHeader(17 * 1024));
    expect(big.status).toBe(431);
    expect(big.headers).toContain('X-Content-Type-Options: nosniff');
    expect(JSON.parse(big.body)).toEqual({ error: 'bad_request', message: expect.any(String) });
  });

  it('answers a malformed request line with 400 in the one error shape', async () => {
    t = await makeHttp();
    const reply = await rawRequest(t.url, 'NOT HTTP AT ALL\r\n\r\n');
    expect(reply.status).toBe(400);
    expect(reply.headers).toContain('X-Content-Type-Options: nosniff');
    expect(JSON.parse(reply.body).error).toBe('bad_request');
  });

  it('applies the same head cap in the server startCoffer runs', async () => {
    expect(SERVER_LIMITS.maxHeaderSize).toBe(16 * 1024);
    const config = { ...loadConfig({ HOST: '127.0.0.1', LOG_LEVEL: 'silent', PERSISTENCE: 'memory' }), port: 0 };
    const running = await startCoffer(config, {
      logger: createLogger('silent'),
      argon2: { memoryCost: 1024, timeCost: 1, parallelism: 1 },
    });
    try {
      expect((await rawRequest(running.url, withHeader(17 * 1024))).status).toBe(431);
      expect(running.server.headersTimeout).toBe(SERVER_LIMITS.headersTimeout);
      expect(running.server.timeout).toBe(SERVER_LIMITS.idleTimeout);
      expect(running.server.requestTimeout).toBe(0);
    } finally {
      await running.close();
    }
  });
});

describe('slow clients', () => {
  const fast = { headersTimeout: 300, connectionsCheckingInterval: 50, idleTimeout: 600 };

  it('cuts a client that sends its headers a trickle at a time, with 408', async () => {
    t = await makeHttp({ serverLimits: fast });
    const socket = await openSocket(t.url);
    const reply = readUntilClosed(socket, 5000);
    socket.write('GET /health HTTP/1.1\r\nHost: x\r\n');
    // Never idle (a byte every 50 ms), yet never done: only the head deadline can end this.
    const drip = setInterval(() => socket.writable && socket.write('X-Slow: y\r\n'), 50);
    try {
      const { status, elapsedMs, headers } = await reply;
      expect(status).toBe(408);
      expect(headers).toContain('X-Content-Type-Options: nosniff');
      expect(elapsedMs).toBeGreaterThanOrEqual(250);
      expect(elapsedMs).toBeLessThan(2000);
    } finally {
      clearInterval(drip);
    }
  });

  it('closes a connection whose body stops arriving', async () => {
    t = await makeHttp({ serverLimits: fast });
    const token = await t.userToken('alice');
    const socket = await openSocket(t.url);
    const reply = readUntilClosed(socket, 5000);
    socket.write(
      `POST /api/folder HTTP/1.1\r\nHost: x\r\nAuthorization: token ${token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":',
    );
    const { elapsedMs } = await reply;
    expect(elapsedMs).toBeGreaterThanOrEqual(500);
    expect(elapsedMs).toBeLessThan(3000);
    expect((await t.request('GET', '/api/usage/stats', { token })).body.folders.current).toBe(0);
  });

  it('closes a kept-alive connection that sends nothing more', async () => {
    t = await makeHttp({ serverLimits: { ...fast, keepAliveTimeout: 200 } });
    const socket = await openSocket(t.url);
    const reply = readUntilClosed(socket, 5000);
    socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    const { status, elapsedMs } = await reply;
    expect(status).toBe(200);
    expect(elapsedMs).toBeLessThan(3000);
  });
});

describe('names, depth and search', () => {
  it('bounds every name at 255 characters, whatever the route', async () => {
    t = await makeHttp();
    const token = await t.userToken('alice');
    const long = 'é'.repeat(1000);
    const folder = await t.request('POST', '/api/folder', { token, json: { name: long } });
    const collection = await t.request('POST', '/api/collection', { token, json: { name: long } });
    const paste = await t.request('POST', '/api/paste', { token, json: { name: long, content: 'x' } });
    const token2 = await t.request('POST', '/api/token', { token, json: { name: long } });
    const file = await t.upload(token, 'x', { name: long });
    const renamed = await t.request('PATCH', `/api/file/${file.body.id}`, { token, json: { name: long } });
    for (const reply of [folder, collection, paste, token2, file, renamed]) {
      expect(reply.status).toBeLessThan(300);
      expect([...reply.body.name].length).toBeLessThanOrEqual(255);
    }
  });

  it(`refuses folders deeper than ${MAX_FOLDER_DEPTH} levels`, async () => {
    t = await makeHttp();
    const token = await t.userToken('alice');
    let parentId: string | null = null;
    for (let depth = 1; depth <= MAX_FOLDER_DEPTH; depth++) {
      const res = await t.request('POST', '/api/folder', { token, json: { name: `d${depth}`, parentId } });
      expect(res.status).toBe(201);
      parentId = res.body.id;
    }
    const deeper = await t.request('POST', '/api/folder', { token, json: { name: 'too deep', parentId } });
    expect(deeper.status).toBe(400);
  });

  it('refuses a search query over 256 characters', async () => {
    t = await makeHttp();
    const token = await t.userToken('alice');
    expect((await t.request('POST', '/api/search', { token, json: { query: 'q'.repeat(256) } })).status).toBe(200);
    expect((await t.request('POST', '/api/search', { token, json: { query: 'q'.repeat(257) } })).status).toBe(400);
  });
});

describe('multipart limits', () => {
  const boundary = 'LIMITS';
  const part = (headers: string, value: string) => `--${boundary}\r\n${headers}\r\n\r\n${value}\r\n`;
  const field = (name: string, value: string) => part(`Content-Disposition: form-data; name="${name}"`, value);
  const file = (name = 'file') =>
    part(`Content-Disposition: form-data; name="${name}"; filename="a.txt"\r\nContent-Type: text/plain`, 'data');

  async function send(token: string, body: string) {
    return t.request('POST', '/api/file', {
      token,
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
  }

  it('refuses too many fields, too many parts, a long field and a second file, keeping nothing', async () => {
    t = await makeHttp();
    const token = await t.userToken('alice');
    const cases: Array<[string, string]> = [
      ['11 fields', Array.from({ length: 11 }, (_, i) => field(`f${i}`, 'v')).join('') + file()],
      ['13 parts', Array.from({ length: 12 }, () => file('other')).join('') + file()],
      ['a 5 KiB field', field('name', 'n'.repeat(5 * 1024)) + file()],
      ['two files', file() + file()],
    ];
    for (const [what, parts] of cases) {
      const res = await send(token, `${parts}--${boundary}--\r\n`);
      expect(res.status, what).toBe(400);
      expect(res.body.error, what).toBe('bad_request');
    }
    const usage = (await t.request('GET', '/api/usage/stats', { token })).body;
    expect(usage.files.current).toBe(0);
    expect(usage.storage.current).toBe('0');
    const blobs = [];
    for await (const blob of t.ports.blobs.list()) blobs.push(blob);
    expect(blobs).toEqual([]);
    expect((await send(token, `${field('name', 'ok.txt')}${file()}--${boundary}--\r\n`)).status).toBe(201);
  });
});
