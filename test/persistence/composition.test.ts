import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { MongoClient } from 'mongodb';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpApp } from '../../src/adapters/http/http-app.js';
import { HttpOptions } from '../../src/adapters/http/http-options.js';
import { Core } from '../../src/application/index.js';
import { buildContainer, connectPersistence, memoryPersistence, Persistence } from '../../src/boot/composition.js';
import { loadConfig } from '../../src/boot/config.js';
import { createLogger } from '../../src/boot/logger.js';
import { MEMORY_FALLBACK_WARNING, MEMORY_FORCED_WARNING } from '../../src/boot/persistence.js';
import { dashboardAddress, startCoffer } from '../../src/boot/server.js';

const quiet = loadConfig({ LOG_LEVEL: 'silent' });
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function captureLog(): { logger: ReturnType<typeof createLogger>; lines: () => { level: number; msg: string }[] } {
  let text = '';
  const sink = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  const logger = createLogger('info', sink);
  return { logger, lines: () => text.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)) };
}

async function serve(app: HttpApp): Promise<string> {
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('buildContainer', () => {
  it('runs on memory without a persistence, and /health says so', async () => {
    const container = buildContainer(quiet);
    expect(container.get<HttpOptions>(HttpOptions).persistence).toBe('memory');
    expect(container.get<Persistence>(Persistence).kind).toBe('memory');
    const url = await serve(container.get(HttpApp));
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'ok', persistence: 'memory' });
    const session = await fetch(`${url}/api/auth/session`);
    expect(await session.json()).toEqual({ user: null, registration: false, persistence: 'memory' });
  });

  it('refuses a configuration that names a database when no connected persistence is given', () => {
    expect(() => buildContainer(loadConfig({ MONGODB_URI: 'mongodb://db:27017' }))).toThrow(/connectPersistence/);
    expect(() => buildContainer(loadConfig({ PERSISTENCE: 'embedded' }))).toThrow(/connectPersistence/);
    expect(() => buildContainer(quiet, { blobStore: 'gridfs' })).toThrow(/gridfs/i);
    expect(buildContainer(loadConfig({ PERSISTENCE: 'memory' })).get(Core)).toBeDefined();
  });

  it('binds the MongoDB adapters, and a database that is gone answers 503 unavailable, not 500', async () => {
    const client = new MongoClient('mongodb://127.0.0.1:9', { serverSelectionTimeoutMS: 200 });
    cleanups.push(() => client.close());
    const persistence: Persistence = { kind: 'mongodb', db: client.db('nowhere'), close: () => client.close() };
    const config = loadConfig({ MONGODB_URI: 'mongodb://127.0.0.1:9', BLOB_STORE: 'gridfs', LOG_LEVEL: 'silent' });
    const url = await serve(buildContainer(config, { persistence }).get(HttpApp));

    expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'ok', persistence: 'mongodb' });
    // The dashboard's question names the same persistence, signed in or not, without asking the database.
    const session = await fetch(`${url}/api/auth/session`);
    expect(await session.json()).toEqual({ user: null, registration: false, persistence: 'mongodb' });
    for (const [method, path, body] of [
      ['POST', '/api/auth/login', JSON.stringify({ username: 'alice', password: 'long enough' })],
      ['GET', '/api/usage/stats', undefined],
    ] as const) {
      const res = await fetch(url + path, {
        method,
        body,
        headers: { 'content-type': 'application/json', authorization: 'token abc' },
      });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: 'unavailable', message: expect.stringMatching(/database/i) });
    }
  });
});

describe('connectPersistence', () => {
  it('falls back to memory offline and logs exactly the one warning line', async () => {
    const { logger, lines } = captureLog();
    const persistence = await connectPersistence(loadConfig({}), { logger, probe: async () => null });
    expect(persistence.kind).toBe('memory');
    expect(persistence.db).toBeNull();
    expect(lines()).toEqual([expect.objectContaining({ level: 40, msg: MEMORY_FALLBACK_WARNING })]);
    await persistence.close();
  });

  it('in production, without a database, refuses before logging any memory warning', async () => {
    const { logger, lines } = captureLog();
    const refused = connectPersistence(loadConfig({ NODE_ENV: 'production' }), { logger, probe: async () => null });
    await expect(refused).rejects.toThrow(/^NODE_ENV is production and no database/);
    expect(lines()).toEqual([]);
    const accepted = await connectPersistence(loadConfig({ NODE_ENV: 'production', PERSISTENCE: 'memory' }), {
      logger,
      probe: async () => null,
    });
    expect(accepted.kind).toBe('memory');
    expect(lines()).toEqual([expect.objectContaining({ level: 40, msg: MEMORY_FORCED_WARNING })]);
  });

  it('gives up on an unreachable MongoDB after its bounded retries, naming the host', async () => {
    const config = loadConfig({ MONGODB_URI: 'mongodb://admin:s3cret@127.0.0.1:9/coffer' });
    const { logger, lines } = captureLog();
    const failure = connectPersistence(config, {
      logger,
      mongo: { retries: 1, delayMs: 10, serverSelectionTimeoutMS: 100 },
    });
    await expect(failure).rejects.toThrow(/^Cannot connect to MongoDB at mongodb:\/\/\*\*\*@127\.0\.0\.1:9\/coffer after 2/);
    expect(lines()).toEqual([expect.objectContaining({ msg: 'MongoDB not reachable yet; retrying', attempt: 1 })]);
    expect(JSON.stringify(lines())).not.toContain('s3cret');
  });
});

describe('dashboardAddress', () => {
  it('is PUBLIC_URL, else HOST:PORT with a wildcard host as localhost; unknown for port 0', () => {
    const at = (host: string, port: number, publicUrl: string | null = null) => dashboardAddress({ host, port, publicUrl });
    expect(at('0.0.0.0', 3000)).toBe('http://localhost:3000/');
    expect(at('::', 8080)).toBe('http://localhost:8080/');
    expect(at('127.0.0.1', 3000)).toBe('http://127.0.0.1:3000/');
    expect(at('::1', 3000)).toBe('http://[::1]:3000/');
    expect(at('files.lan', 80)).toBe('http://files.lan:80/');
    expect(at('0.0.0.0', 3000, 'https://example.com/coffer')).toBe('https://example.com/coffer/');
    expect(at('127.0.0.1', 0)).toBeNull();
  });
});

describe('startCoffer', () => {
  it('prints a generated admin password with the dashboard and its Account page, never an API route', async () => {
    const { logger, lines } = captureLog();
    const config = { ...loadConfig({ HOST: '127.0.0.1', PUBLIC_URL: 'https://files.example/coffer' }), port: 0 };
    const running = await startCoffer(config, {
      logger,
      persistence: memoryPersistence(),
      blobStore: 'memory',
      argon2: { memoryCost: 1024, timeCost: 1, parallelism: 1 },
    });
    cleanups.push(() => running.close());
    const line = lines().find((entry) => entry.msg.includes('random password'));
    expect(line).toMatchObject({ level: 40 });
    expect(line!.msg).toMatch(
      /^Created admin "admin" with the random password \S{24} — sign in at https:\/\/files\.example\/coffer\/ and choose a new password on its Account page \(https:\/\/files\.example\/coffer\/account\), or set ADMIN_USERNAME and ADMIN_PASSWORD$/,
    );
    expect(line!.msg).not.toContain('/api/');
  });

  it('names the persistence it chose, and closes it on close()', async () => {
    const config = { ...loadConfig({ HOST: '127.0.0.1', LOG_LEVEL: 'silent' }), port: 0 };
    let closed = 0;
    const persistence = { ...memoryPersistence(), close: async () => void closed++ };
    const running = await startCoffer(config, { persistence, blobStore: 'memory', argon2: { memoryCost: 1024, timeCost: 1, parallelism: 1 } });
    expect(running.persistence).toBe('memory');
    expect(await (await fetch(`${running.url}/health`)).json()).toMatchObject({ persistence: 'memory' });
    await running.close();
    await running.close();
    expect(closed).toBe(1);
  });
});
