import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OutboxWorker, RETRY_FOR_MS, retryDelay } from '../../src/application/index.js';
import { LoggedActivityRecorder } from '../../src/boot/activity-recorder.js';
import { makeHttp, type HttpTest } from '../support/http.js';
import { startReceiver } from '../support/webhook-receiver.js';

type Verify = (secret: string, rawBody: string, header: string, now?: number) => boolean;
let verifyCofferSignature: Verify;

/** The receiver checks signatures with the very snippet docs/API.md gives receivers, taken out of the document. */
beforeAll(async () => {
  const doc = readFileSync(new URL('../../docs/API.md', import.meta.url), 'utf8');
  const snippet = /```js\n(import \{ createHmac, timingSafeEqual \}[\s\S]*?)```/.exec(doc)?.[1];
  expect(snippet, 'docs/API.md has the verification snippet').toBeDefined();
  const file = join(tmpdir(), `coffer-verify-${process.pid}-${Date.now()}.mjs`);
  writeFileSync(file, snippet!);
  ({ verifyCofferSignature } = (await import(pathToFileURL(file).href)) as { verifyCofferSignature: Verify });
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function app(options: Parameters<typeof makeHttp>[0] = {}): Promise<HttpTest> {
  const t = await makeHttp({ ...options, config: { webhookAllowPrivate: true, ...options.config } });
  cleanups.push(() => t.close());
  return t;
}

async function receiver(answer?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(answer);
  cleanups.push(r.close);
  return r;
}

/** What the boot loop does on each instance: turns of the outbox, once the recorded events are written. */
async function drain(t: HttpTest) {
  await t.container.get(LoggedActivityRecorder).settled();
  const worker = new OutboxWorker(t.ports);
  while (true) {
    const { dispatched, attempted } = await worker.step();
    if (dispatched === 0 && attempted === 0) return;
  }
}

async function sharedFile(t: HttpTest, token: string) {
  const file = (await t.upload(token, 'hello')).body;
  return (await t.request('POST', '/api/share', { token, json: { type: 'file', id: file.id } })).body.id as string;
}

describe('webhooks: managing them', () => {
  it('create shows the secret once; list and get never; at most 10; session tokens only', async () => {
    const t = await app();
    const alice = await t.userToken('alice');
    const made = await t.request('POST', '/api/webhook', { token: alice, json: { url: 'https://hooks.example.com/a', events: ['share.downloaded'] } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ url: 'https://hooks.example.com/a', events: ['share.downloaded'], shareIds: null, enabled: true, disabledReason: null });
    expect(made.body.secret).toMatch(/^\S{32,}$/);
    const listed = await t.request('GET', '/api/webhook', { token: alice });
    expect(listed.body).toHaveLength(1);
    expect(listed.text).not.toContain(made.body.secret);
    expect((await t.request('GET', `/api/webhook/${made.body.id}`, { token: alice })).text).not.toContain(made.body.secret);

    const more = await Promise.all(
      Array.from({ length: 12 }, (_, i) => t.request('POST', '/api/webhook', { token: alice, json: { url: `https://hooks.example.com/${i}`, events: ['share.viewed'] } })),
    );
    expect(more.filter((r) => r.status === 201)).toHaveLength(9);
    const refused = more.filter((r) => r.status === 403);
    expect(refused).toHaveLength(3);
    expect(refused[0]!.body).toMatchObject({ error: 'limit_reached', limit: 'webhooks' });
    expect((await t.request('GET', '/api/webhook', { token: alice })).body).toHaveLength(10);

    const api = (await t.request('POST', '/api/token', { token: alice, json: { name: 'cli' } })).body.token;
    expect((await t.request('GET', '/api/webhook', { token: api })).status).toBe(403);
    const bob = await t.userToken('bob');
    expect((await t.request('GET', `/api/webhook/${made.body.id}`, { token: bob })).status).toBe(404);
    expect((await t.request('DELETE', `/api/webhook/${made.body.id}`, { token: bob })).status).toBe(404);
  });

  it('refuses bad input and changes nothing', async () => {
    const t = await makeHttp();
    cleanups.push(() => t.close());
    const alice = await t.userToken('alice');
    const bad = [
      { url: 'ftp://hooks.example.com/', events: ['share.viewed'] },
      { url: 'https://user:pw@hooks.example.com/', events: ['share.viewed'] },
      { url: 'http://127.0.0.1:9/', events: ['share.viewed'] },
      { url: 'http://[::1]/', events: ['share.viewed'] },
      { url: 'http://169.254.169.254/latest/meta-data', events: ['share.viewed'] },
      { url: 'https://hooks.example.com/', events: [] },
      { url: 'https://hooks.example.com/', events: ['share.eaten'] },
      { url: 'https://hooks.example.com/', events: ['share.viewed'], shareIds: ['nosuchshare0000000000a'] },
      { url: 'https://hooks.example.com/', events: ['share.viewed'], extra: 1 },
    ];
    for (const json of bad) expect((await t.request('POST', '/api/webhook', { token: alice, json })).status, JSON.stringify(json)).toBe(400);
    expect((await t.request('GET', '/api/webhook', { token: alice })).body).toEqual([]);
  });

  it('PATCH changes it; DELETE removes it and its deliveries', async () => {
    const t = await app();
    const alice = await t.userToken('alice');
    const shareId = await sharedFile(t, alice);
    const hook = (await t.request('POST', '/api/webhook', { token: alice, json: { url: 'https://hooks.example.com/a', events: ['share.viewed'] } })).body;
    const patched = await t.request('PATCH', `/api/webhook/${hook.id}`, { token: alice, json: { events: ['share.viewed', 'limit.reached'], shareIds: [shareId] } });
    expect(patched.body).toMatchObject({ events: ['share.viewed', 'limit.reached'], shareIds: [shareId] });
    expect((await t.request('POST', `/api/webhook/${hook.id}/test`, { token: alice })).status).toBe(202);
    expect((await t.request('GET', `/api/webhook/${hook.id}/deliveries`, { token: alice })).body).toHaveLength(1);
    expect((await t.request('DELETE', `/api/webhook/${hook.id}`, { token: alice })).status).toBe(204);
    expect((await t.request('GET', `/api/webhook/${hook.id}`, { token: alice })).status).toBe(404);
    expect(await t.ports.deliveries.listByWebhook(hook.id, 10)).toEqual([]);
  });
});

describe('webhooks: delivery', () => {
  it('a receiver written from docs/API.md gets each event signed, with its id', async () => {
    const t = await app();
    const r = await receiver();
    const alice = await t.userToken('alice');
    const shareId = await sharedFile(t, alice);
    const hook = (await t.request('POST', '/api/webhook', { token: alice, json: { url: r.url, events: ['share.viewed', 'share.downloaded'] } })).body;
    await t.request('GET', `/api/share/${shareId}`);
    await t.request('GET', `/api/share/${shareId}/content`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await drain(t);
    expect(r.received).toHaveLength(2);
    const events = (await t.request('GET', '/api/activity', { token: alice })).body as { id: string; kind: string }[];
    for (const got of r.received) {
      expect(got.headers['content-type']).toBe('application/json');
      const header = String(got.headers['coffer-signature']);
      expect(verifyCofferSignature(hook.secret, got.body, header, t.clock.now().getTime())).toBe(true);
      // The same bytes under another secret, or changed by one byte, or replayed much later, do not pass.
      expect(verifyCofferSignature('another secret', got.body, header, t.clock.now().getTime())).toBe(false);
      expect(verifyCofferSignature(hook.secret, got.body.replace('share', 'shore'), header, t.clock.now().getTime())).toBe(false);
      expect(verifyCofferSignature(hook.secret, got.body, header, t.clock.now().getTime() + 10 * 60_000)).toBe(false);
    }
    const bodies = r.received.map((got) => JSON.parse(got.body) as { id: string; type: string; createdAt: string; data: { kind: string; shareId: string } });
    expect(bodies.map((b) => b.type).sort()).toEqual(['share.downloaded', 'share.viewed']);
    expect(bodies.map((b) => b.id).sort()).toEqual(events.map((e) => e.id).sort());
    expect(bodies.every((b) => b.data.shareId === shareId)).toBe(true);
    const deliveries = (await t.request('GET', `/api/webhook/${hook.id}/deliveries`, { token: alice })).body;
    expect(deliveries.every((d: { state: string; attempts: number; lastStatus: number }) => d.state === 'delivered' && d.attempts === 1 && d.lastStatus === 200)).toBe(true);
  });

  it('only the events and shares a webhook names; limit.reached comes with the read that used up the maximum', async () => {
    const t = await app();
    const r = await receiver();
    const alice = await t.userToken('alice');
    const one = await sharedFile(t, alice);
    const file = (await t.upload(alice, 'other')).body;
    const other = (await t.request('POST', '/api/share', { token: alice, json: { type: 'file', id: file.id, maxViews: 1 } })).body.id;
    await t.request('POST', '/api/webhook', { token: alice, json: { url: r.url, events: ['share.viewed', 'limit.reached'], shareIds: [other] } });
    await t.request('GET', `/api/share/${one}`);
    await t.request('GET', `/api/share/${other}`);
    await t.request('GET', `/api/share/${other}/content`);
    await drain(t);
    const bodies = r.received.map((got) => JSON.parse(got.body) as { id: string; type: string; data: { shareId: string; limit?: string } });
    expect(bodies.map((b) => b.type).sort()).toEqual(['limit.reached', 'share.viewed']);
    const limit = bodies.find((b) => b.type === 'limit.reached')!;
    const viewed = bodies.find((b) => b.type === 'share.viewed')!;
    expect(limit).toMatchObject({ id: `${viewed.id}.limit`, data: { shareId: other, limit: 'views' } });
  });

  it('a receiver failing three times then succeeding gets the event, with the same id each time', async () => {
    const t = await app();
    const r = await receiver((i) => (i < 3 ? 500 : 204));
    const alice = await t.userToken('alice');
    const shareId = await sharedFile(t, alice);
    const hook = (await t.request('POST', '/api/webhook', { token: alice, json: { url: r.url, events: ['share.viewed'] } })).body;
    await t.request('GET', `/api/share/${shareId}`);
    await drain(t);
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(r.received).toHaveLength(attempt);
      // Not before its time...
      t.clock.advance(retryDelay(attempt) - 1);
      await drain(t);
      expect(r.received).toHaveLength(attempt);
      t.clock.advance(1);
      await drain(t);
    }
    expect(r.received).toHaveLength(4);
    const ids = r.received.map((got) => (JSON.parse(got.body) as { id: string }).id);
    expect(new Set(ids).size).toBe(1);
    const [delivery] = (await t.request('GET', `/api/webhook/${hook.id}/deliveries`, { token: alice })).body;
    expect(delivery).toMatchObject({ id: ids[0], state: 'delivered', attempts: 4, lastStatus: 204, nextAttemptAt: null });
  });

  it('retries for 24 hours, then the webhook is disabled and says why; redirects are not followed', async () => {
    const t = await app();
    const r = await receiver(() => 302);
    const alice = await t.userToken('alice');
    const shareId = await sharedFile(t, alice);
    const hook = (await t.request('POST', '/api/webhook', { token: alice, json: { url: r.url, events: ['share.viewed'] } })).body;
    await t.request('GET', `/api/share/${shareId}`);
    await drain(t);
    let spent = 0;
    while (spent <= RETRY_FOR_MS) {
      t.clock.advance(60 * 60 * 1000);
      spent += 60 * 60 * 1000;
      await drain(t);
    }
    const attempts = r.received.length;
    expect(attempts).toBeGreaterThan(10);
    const after = (await t.request('GET', `/api/webhook/${hook.id}`, { token: alice })).body;
    expect(after.enabled).toBe(false);
    expect(after.disabledReason).toMatch(/24 hours.*302/);
    const [delivery] = (await t.request('GET', `/api/webhook/${hook.id}/deliveries`, { token: alice })).body;
    expect(delivery).toMatchObject({ state: 'failed', lastStatus: 302 });
    // Disabled: nothing more is sent, until it is turned back on.
    await t.request('GET', `/api/share/${shareId}`);
    t.clock.advance(60_000);
    await drain(t);
    expect(r.received).toHaveLength(attempts);
    expect((await t.request('PATCH', `/api/webhook/${hook.id}`, { token: alice, json: { enabled: true } })).body.enabled).toBe(true);
  });

  it('"Send test" queues a signed ping', async () => {
    const t = await app();
    const r = await receiver();
    const alice = await t.userToken('alice');
    const hook = (await t.request('POST', '/api/webhook', { token: alice, json: { url: r.url, events: ['share.viewed'] } })).body;
    const queued = await t.request('POST', `/api/webhook/${hook.id}/test`, { token: alice });
    expect(queued.body).toMatchObject({ type: 'ping', state: 'pending', attempts: 0 });
    await drain(t);
    const body = JSON.parse(r.received[0]!.body) as { id: string; type: string; data: unknown };
    expect(body).toMatchObject({ id: queued.body.id, type: 'ping', data: { webhookId: hook.id } });
    expect(verifyCofferSignature(hook.secret, r.received[0]!.body, String(r.received[0]!.headers['coffer-signature']), t.clock.now().getTime())).toBe(true);
  });
});

describe('webhooks: several instances, and one that dies', () => {
  it('two instances on one database, a receiver that always succeeds: every event id arrives exactly once', async () => {
    const a = await app({ serverLimits: { maxConnectionsPerAddress: 1000 } });
    const b = await app({ memoryOf: a.container, clock: a.clock, serverLimits: { maxConnectionsPerAddress: 1000 } });
    const r = await receiver();
    const alice = await a.userToken('alice');
    const shareId = await sharedFile(a, alice);
    await a.request('POST', '/api/webhook', { token: alice, json: { url: r.url, events: ['share.viewed'] } });
    await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).request('GET', `/api/share/${shareId}`)));
    await a.container.get(LoggedActivityRecorder).settled();
    await b.container.get(LoggedActivityRecorder).settled();
    // Both loops at once, turn after turn, as two processes would run them.
    await Promise.all([drain(a), drain(b), drain(a), drain(b)]);
    const ids = r.received.map((got) => (JSON.parse(got.body) as { id: string }).id);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
    const events = (await a.request('GET', '/api/activity', { token: alice })).body as { id: string }[];
    expect(new Set(ids)).toEqual(new Set(events.map((e) => e.id)));
  });

  it('an instance killed between the event and its delivery loses nothing: another takes over once its lease runs out', async () => {
    const a = await app();
    const b = await app({ memoryOf: a.container, clock: a.clock });
    const r = await receiver();
    const alice = await a.userToken('alice');
    const shareId = await sharedFile(a, alice);
    await a.request('POST', '/api/webhook', { token: alice, json: { url: r.url, events: ['share.viewed'] } });
    await a.request('GET', `/api/share/${shareId}`);
    await a.request('GET', `/api/share/${shareId}`);
    await a.container.get(LoggedActivityRecorder).settled();
    const now = a.clock.now();
    const lease = new Date(now.getTime() + 60_000);
    // Instance a takes the first event to dispatch, and the second one's delivery to send, then dies (nothing more runs).
    const taken = await a.ports.activityLog.takeUndispatched(a.ports.instance.id(), now, lease, 1);
    expect(taken).toHaveLength(1);
    expect(await new OutboxWorker(a.ports).dispatchSome()).toBe(1);
    const row = await a.ports.deliveries.takeDue(a.ports.instance.id(), now, lease);
    expect(row).not.toBeNull();
    // While its leases hold, b leaves both alone...
    await drain(b);
    expect(r.received).toHaveLength(0);
    // ...and once they run out, b sends each event once.
    a.clock.advance(60_001);
    await drain(b);
    const ids = r.received.map((got) => (JSON.parse(got.body) as { id: string }).id).sort();
    const events = (await b.request('GET', '/api/activity', { token: alice })).body as { id: string }[];
    expect(ids).toEqual(events.map((e) => e.id).sort());
    expect(ids).toHaveLength(2);
  });
});
