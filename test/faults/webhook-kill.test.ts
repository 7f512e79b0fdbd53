import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/boot/config.js';
import { LeaseKeeper } from '../../src/boot/instance-lease.js';
import { startCoffer, type RunningCoffer } from '../../src/boot/server.js';
import { CHEAP_ARGON2 } from '../support/core.js';
import { killable } from '../support/killable.js';
import { adminLogin } from '../support/tus-client.js';
import { startReceiver } from '../support/webhook-receiver.js';
import { ADMIN } from '../mongodb/mongo-app.js';

const ENV = {
  PERSISTENCE: 'memory',
  HOST: '127.0.0.1',
  PORT: '1',
  LOG_LEVEL: 'silent',
  ADMIN_USERNAME: ADMIN.username,
  ADMIN_PASSWORD: ADMIN.password,
  WEBHOOK_ALLOW_PRIVATE: 'true',
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const json = async (url: string, token: string, body?: unknown, method = 'POST') =>
  (await fetch(url, { method, headers: { authorization: `token ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })).json() as Promise<{ id: string }>;

describe('webhooks across a kill', () => {
  it('an instance killed while it sends a delivery loses nothing: another sends it, with the same event id', async () => {
    // The first attempt never gets an answer (the instance sending it is killed meanwhile); later ones succeed.
    const receiver = await startReceiver((index) => (index === 0 ? -1 : 200));
    cleanups.push(receiver.close);
    const config = { ...loadConfig(ENV), port: 0 };
    const killer = killable();
    const options = { argon2: CHEAP_ARGON2, blobStore: 'memory' as const, webDir: null };
    // a turns its outbox every 20 ms; b only every 3 s, so a takes the event first, and b finds it after a's death.
    const a: RunningCoffer = await startCoffer(config, { ...options, wrapPorts: killer.wrap, outbox: { idleMs: 20, leaseMs: 1000 } });
    const b: RunningCoffer = await startCoffer(config, { ...options, memoryOf: a.container, outbox: { idleMs: 3000, leaseMs: 1000 } });
    cleanups.push(() => b.close());

    const admin = await adminLogin(b.url);
    const form = new FormData();
    form.append('file', new Blob(['hello']), 'a.txt');
    const file = (await (await fetch(`${b.url}/api/file`, { method: 'POST', headers: { authorization: `token ${admin}` }, body: form })).json()) as { id: string };
    const share = await json(`${b.url}/api/share`, admin, { type: 'file', id: file.id });
    await json(`${b.url}/api/webhook`, admin, { url: receiver.url, events: ['share.viewed'] });

    expect((await fetch(`${a.url}/api/share/${share.id}`)).status).toBe(200);
    // a dispatches the event and starts sending it; the receiver holds that request open.
    await expect.poll(() => receiver.received.length, { timeout: 5000 }).toBe(1);
    killer.kill();
    a.container.get(LeaseKeeper).halt();
    a.server.closeAllConnections();
    a.server.close();

    // b, once a's lease on the delivery has run out, sends it again: the same event id, answered 200.
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(2);
    const ids = receiver.received.map((got) => (JSON.parse(got.body) as { id: string }).id);
    expect(ids[1]).toBe(ids[0]);
    const events = (await (await fetch(`${b.url}/api/activity`, { headers: { authorization: `token ${admin}` } })).json()) as { id: string }[];
    expect(events.map((e) => e.id)).toEqual([ids[0]]);
  }, 20_000);
});
