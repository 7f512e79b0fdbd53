import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCoffer, type RunningCoffer } from '../../src/boot/server.js';
import { getMongoUri, MONGO_SKIP_MESSAGE } from '../support/mongo.js';
import { ADMIN, CHEAP_ARGON2, dropDatabases, freshDbName, mongoConfig } from './mongo-app.js';

const target = await getMongoUri();
if (!target) console.log(MONGO_SKIP_MESSAGE);

/** host:port of a single-host mongodb:// URI, or null (SRV records and replica-set seed lists are not proxied). */
function singleHost(uri: string): { host: string; port: number; auth: string } | null {
  const match = /^mongodb:\/\/(?:([^@/]*)@)?([^,/?]+?)(?::(\d+))?(?:[/?]|$)/.exec(uri);
  if (!match) return null;
  return { auth: match[1] ? `${match[1]}@` : '', host: match[2]!, port: Number(match[3] ?? 27017) };
}

/** A TCP relay in front of the database, so a test can cut the service off from it and bring it back. */
class Relay {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly to: { host: string; port: number }) {}

  async up(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.to.port, this.to.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async down(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
}

const hostOf = target ? singleHost(target.uri) : null;
if (target && !hostOf) console.log('MongoDB outage test skipped: MONGODB_URI is not a single mongodb:// host');

describe.skipIf(!hostOf)('the service when MongoDB goes away', () => {
  const dbName = freshDbName();
  const relay = new Relay(hostOf ?? { host: '', port: 0 });
  let running: RunningCoffer;
  let token: string;

  const stats = () => fetch(`${running.url}/api/usage/stats`, { headers: { authorization: `token ${token}` } });

  beforeAll(async () => {
    await relay.up();
    const uri = `mongodb://${hostOf!.auth}127.0.0.1:${relay.port}/?directConnection=true`;
    running = await startCoffer(mongoConfig(uri, dbName), {
      argon2: CHEAP_ARGON2,
      mongo: { retries: 0, serverSelectionTimeoutMS: 500 },
    });
    const login = await fetch(`${running.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    token = ((await login.json()) as { token: string }).token;
  });

  afterAll(async () => {
    await running?.close();
    await relay.down();
    await dropDatabases(target!.uri, [dbName]);
    await target?.stop();
  });

  it('answers 503 unavailable in the error shape while the database is gone, and recovers when it is back', async () => {
    expect((await stats()).status).toBe(200);

    await relay.down();
    const lost = await stats();
    expect(lost.status).toBe(503);
    expect(await lost.json()).toEqual({ error: 'unavailable', message: expect.any(String) });
    const write = await fetch(`${running.url}/api/folder`, {
      method: 'POST',
      headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'during the outage' }),
    });
    expect(write.status).toBe(503);
    expect((await fetch(`${running.url}/health`)).status).toBe(200);

    await relay.up();
    let status = 0;
    for (let i = 0; i < 40 && status !== 200; i++) {
      status = (await stats()).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(200);
  });
});
