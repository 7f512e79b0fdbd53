import type { CommandStartedEvent } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPersistence } from '../../src/boot/composition.js';
import { createLogger } from '../../src/boot/logger.js';
import { startCoffer, type RunningCoffer } from '../../src/boot/server.js';
import type { Env } from '../../src/boot/config.js';
import { requestInit, toReply, type Reply, type RequestOptions } from '../support/http.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from '../support/mongo.js';
import { tempDir } from '../support/temp.js';
import { ADMIN, CHEAP_ARGON2, dropDatabases, freshDbName, mongoConfig } from './mongo-app.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

/** A running service whose every MongoDB command is recorded, as `collection command` ("shares find"). */
interface Monitored {
  request(method: string, path: string, options?: RequestOptions): Promise<Reply>;
  /** Sends one request and tells its status and the commands it cost. */
  commandsOf(method: string, path: string, options?: RequestOptions): Promise<{ status: number; commands: string[] }>;
  close(): Promise<void>;
}

async function monitored(uri: string, env: Env): Promise<Monitored> {
  const dbName = freshDbName();
  const watched = new URL(uri);
  // Set where the client is made, so every connection it opens reports its commands.
  watched.searchParams.set('monitorCommands', 'true');
  const config = mongoConfig(watched.href, dbName, env);
  const persistence = await connectPersistence(config, { logger: createLogger('silent') });
  let seen: string[] = [];
  persistence.db!.client.on('commandStarted', (event: CommandStartedEvent) => {
    const on = event.command[event.commandName];
    seen.push(`${typeof on === 'string' ? on : event.databaseName} ${event.commandName}`);
  });
  // No scheduled sweep runs within a test: its commands would land in a request's count.
  const running: RunningCoffer = await startCoffer(config, {
    persistence,
    argon2: CHEAP_ARGON2,
    sweep: { graceMs: 3_600_000, intervalMs: 3_600_000 },
  });
  const request = async (method: string, path: string, options: RequestOptions = {}) =>
    toReply(await fetch(running.url + path, { method, ...requestInit(options) }));
  return {
    request,
    commandsOf: async (method, path, options) => {
      seen = [];
      const reply = await request(method, path, options);
      // SHOW_COMMANDS=1 prints every counted request's commands: how docs/BENCHMARKS.md's table is taken.
      if (process.env.SHOW_COMMANDS) console.log(method, path, reply.status, seen.length, seen.join('; '));
      return { status: reply.status, commands: seen };
    },
    close: async () => {
      await running.close();
      await dropDatabases(uri, [dbName]);
    },
  };
}

function upload(content: string, name = 'note.txt'): FormData {
  const form = new FormData();
  form.append('file', new Blob([content], { type: 'text/plain' }), name);
  return form;
}

/**
 * What each hot request costs the database, counted with the driver's command monitoring: on a real deployment each
 * command is a network round trip, so these counts bound latency and throughput. Every request is sent once first
 * (lazily created indexes and the like are not what is counted), then counted.
 */
describe.skipIf(!target)('MongoDB commands per request', () => {
  let gridfs: Monitored;
  let fs: Monitored;
  let alice: string;
  let fileShare: string;
  let folderShare: string;
  let protectedShare: string;
  let fileId: string;

  const login = async (app: Monitored, username: string, password: string) =>
    (await app.request('POST', '/api/auth/login', { json: { username, password } })).body.token as string;

  beforeAll(async () => {
    [gridfs, fs] = await Promise.all([
      monitored(target!.uri, {}),
      monitored(target!.uri, { BLOB_STORE: 'fs', DATA_DIR: tempDir('commands') }),
    ]);
    const admin = await login(gridfs, ADMIN.username, ADMIN.password);
    await gridfs.request('POST', '/api/admin/users', { token: admin, json: { username: 'alice', password: 'alice-password' } });
    alice = await login(gridfs, 'alice', 'alice-password');
    fileId = (await gridfs.request('POST', '/api/file', { token: alice, body: upload('x'.repeat(100)) })).body.id;
    const folder = (await gridfs.request('POST', '/api/folder', { token: alice, json: { name: 'Docs' } })).body.id;
    const pdf = (await gridfs.request('POST', '/api/file', { token: alice, body: upload('secret', 'p.txt') })).body.id;
    const share = async (json: Record<string, unknown>) =>
      (await gridfs.request('POST', '/api/share', { token: alice, json })).body.id as string;
    fileShare = await share({ type: 'file', id: fileId });
    folderShare = await share({ type: 'folder', id: folder });
    protectedShare = await share({ type: 'file', id: pdf, password: 'share-password' });
  });

  afterAll(async () => {
    await Promise.all([gridfs?.close(), fs?.close()]);
    await target?.stop();
  });

  /** The request's commands, once it has been sent before; the status must be `status`. */
  async function counted(app: Monitored, status: number, method: string, path: string, opts?: RequestOptions) {
    await app.request(method, path, opts);
    const { status: got, commands } = await app.commandsOf(method, path, opts);
    expect(got, commands.join('; ')).toBe(status);
    return commands;
  }

  // Each counted share read adds one write: its activity event's insert (issue "activity": at most one write per
  // counted read, never awaited by the answer).
  it('a public file share read costs at most 3 (2 and its activity event)', async () => {
    const commands = await counted(gridfs, 200, 'GET', `/api/share/${fileShare}`);
    expect(commands.length, commands.join('; ')).toBeLessThanOrEqual(3);
  });

  it('a public folder share read costs at most 5 (4 and its activity event)', async () => {
    const commands = await counted(gridfs, 200, 'GET', `/api/share/${folderShare}`);
    expect(commands.length, commands.join('; ')).toBeLessThanOrEqual(5);
  });

  // Two of these are the guess throttle's: counting the guess, and forgiving it once it proved right.
  it('a protected share read with the right password costs at most 7 (6 and its activity event)', async () => {
    const headers = { 'x-share-password': 'share-password' };
    const commands = await counted(gridfs, 200, 'GET', `/api/share/${protectedShare}`, { headers });
    expect(commands.length, commands.join('; ')).toBeLessThanOrEqual(7);
  });

  // 5 since second factors: one read of the user's second factors after the session's insert (login-commands.test.ts).
  it('a login costs at most 5 commands, a wrong password at most 3 (2 when repeated)', async () => {
    const right = { json: { username: 'alice', password: 'alice-password' } };
    const success = await counted(gridfs, 200, 'POST', '/api/auth/login', right);
    expect(success.length, success.join('; ')).toBeLessThanOrEqual(5);
    // A first failure from this address at this account also counts the account among those it failed at.
    const wrong = { json: { username: 'alice', password: 'wrong-password' } };
    const first = await gridfs.commandsOf('POST', '/api/auth/login', wrong);
    expect(first.status).toBe(401);
    expect(first.commands.length, first.commands.join('; ')).toBeLessThanOrEqual(3);
    const repeated = await gridfs.commandsOf('POST', '/api/auth/login', wrong);
    expect(repeated.status).toBe(401);
    expect(repeated.commands.length, repeated.commands.join('; ')).toBeLessThanOrEqual(2);
  });

  it('an authenticated request costs at most 1 command to establish who calls', async () => {
    // A file id that does not exist: the use case costs exactly one read, the rest is authentication.
    const commands = await counted(gridfs, 404, 'GET', '/api/file/AAAAAAAAAAAAAAAAAAAAAA', { token: alice });
    expect(commands.length - 1, commands.join('; ')).toBeLessThanOrEqual(1);
  });

  it('usage stats cost at most 2', async () => {
    const commands = await counted(gridfs, 200, 'GET', '/api/usage/stats', { token: alice });
    expect(commands.length, commands.join('; ')).toBeLessThanOrEqual(2);
  });

  // The maxima come with the caller (read with the token); the slot opens with the file counted, the bytes are
  // reserved as they arrive, the record is inserted and the hold settled.
  it('a small upload on the filesystem store costs at most 5', async () => {
    const bob = await (async () => {
      const admin = await login(fs, ADMIN.username, ADMIN.password);
      await fs.request('POST', '/api/admin/users', { token: admin, json: { username: 'bob', password: 'bob-password' } });
      return login(fs, 'bob', 'bob-password');
    })();
    await fs.request('POST', '/api/file', { token: bob, body: upload('y'.repeat(100)) });
    const { status, commands } = await fs.commandsOf('POST', '/api/file', { token: bob, body: upload('z'.repeat(100)) });
    expect(status, commands.join('; ')).toBe(201);
    expect(commands.length, commands.join('; ')).toBeLessThanOrEqual(5);
  });

  it('a GridFS download reads the file document once', async () => {
    const commands = await counted(gridfs, 200, 'GET', `/api/file/${fileId}/content`, { token: alice });
    const filesReads = commands.filter((c) => c === 'blobs.files find');
    expect(filesReads.length, commands.join('; ')).toBe(1);
  });
});
