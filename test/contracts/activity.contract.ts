import { beforeEach, describe, expect, it } from 'vitest';
import type { ActivityEvent } from '../../src/domain/index.js';
import type { ActivityRepository, Delivery, DeliveryRepository, MailNotices, Webhook, WebhookRepository } from '../../src/application/ports/index.js';
import { WEBHOOKS_PER_USER } from '../../src/application/ports/index.js';

const T0 = new Date('2026-11-22T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

let made = 0;
function anEvent(overrides: Partial<ActivityEvent> = {}): ActivityEvent {
  made++;
  return {
    id: `event-${String(made).padStart(6, '0')}`,
    at: at(made * 1000),
    ownerId: 'alice',
    shareId: 'share-1',
    requestId: null,
    kind: 'view',
    fileId: null,
    bytes: null,
    complete: null,
    client: { address: '203.0.113.0/24', browser: 'Firefox', os: 'Linux', bot: false },
    limitReached: null,
    ...overrides,
  };
}

/** Every ActivityRepository adapter runs this; `make` returns one over empty storage. */
export function activityRepositoryContract(name: string, make: () => Promise<ActivityRepository>): void {
  describe(name, () => {
    let log: ActivityRepository;
    beforeEach(async () => {
      log = await make();
    });

    it('pages an owner\'s events newest first, narrowed by share, request and kind, after a key', async () => {
      const events = [
        anEvent(),
        anEvent({ kind: 'download', bytes: 10, complete: true, fileId: 'f1' }),
        anEvent({ shareId: null, requestId: 'req-1', kind: 'received' }),
        anEvent({ ownerId: 'bob', shareId: 'share-2' }),
      ];
      await log.add(events);
      const [e0, e1, e2] = events;
      expect(await log.page({ ownerId: 'alice' }, null, 10)).toEqual([e2, e1, e0]);
      expect(await log.page({ ownerId: 'alice', shareId: 'share-1' }, null, 10)).toEqual([e1, e0]);
      expect(await log.page({ ownerId: 'alice', requestId: 'req-1' }, null, 10)).toEqual([e2]);
      expect(await log.page({ ownerId: 'alice', kind: 'download' }, null, 10)).toEqual([e1]);
      expect(await log.page({ ownerId: 'alice' }, { at: e1!.at, id: e1!.id }, 10)).toEqual([e0]);
      expect(await log.page({ ownerId: 'alice' }, null, 1)).toEqual([e2]);
    });

    it('orders events of one millisecond by id, and pages through them exactly once', async () => {
      const same = ['c', 'a', 'b'].map((id) => anEvent({ id: `same-${id}`, at: T0 }));
      await log.add(same);
      const first = await log.page({ ownerId: 'alice' }, null, 2);
      expect(first.map((e) => e.id)).toEqual(['same-c', 'same-b']);
      const rest = await log.page({ ownerId: 'alice' }, { at: T0, id: 'same-b' }, 2);
      expect(rest.map((e) => e.id)).toEqual(['same-a']);
    });

    it('since: a share\'s events from a time on, oldest first', async () => {
      const a = anEvent();
      const b = anEvent();
      await log.add([a]);
      await log.add([b]);
      expect(await log.since({ shareId: 'share-1' }, b.at, 10)).toEqual([b]);
      expect(await log.since({ shareId: 'share-1' }, T0, 10)).toEqual([a, b]);
    });

    it('removes the events of deleted shares and requests, and those past retention', async () => {
      const a = anEvent();
      const b = anEvent({ shareId: null, requestId: 'req-9', kind: 'received' });
      const c = anEvent({ shareId: 'share-3' });
      await log.add([a, b, c]);
      await log.removeFor({ shareIds: ['share-1'], requestIds: ['req-9'] });
      expect(await log.page({ ownerId: 'alice' }, null, 10)).toEqual([c]);
      expect(await log.sweep(new Date(c.at.getTime() + 1))).toBe(1);
      expect(await log.page({ ownerId: 'alice' }, null, 10)).toEqual([]);
    });

    it('hands each waiting event to one taker at a time, until marked dispatched or its lease runs out', async () => {
      const a = anEvent();
      await log.add([a]);
      const now = at(0);
      const taken = await Promise.all([log.takeUndispatched('x', now, at(60_000), 10), log.takeUndispatched('y', now, at(60_000), 10)]);
      expect(taken.flat()).toEqual([a]);
      const holder = taken[0]!.length > 0 ? 'x' : 'y';
      expect(await log.takeUndispatched('z', at(59_999), at(120_000), 10)).toEqual([]);
      // Run out: another takes it; the first can no longer say it is done.
      expect(await log.takeUndispatched('z', at(60_000), at(120_000), 10)).toEqual([a]);
      expect(await log.markDispatched([a.id], holder)).toBe(0);
      expect(await log.markDispatched([a.id], 'z')).toBe(1);
      expect(await log.markDispatched([a.id], 'z')).toBe(0);
      expect(await log.takeUndispatched('z', at(500_000), at(600_000), 10)).toEqual([]);
    });

    it('takes batches of at most the limit, oldest first; parallel takers share the events without overlap', async () => {
      const events = Array.from({ length: 25 }, () => anEvent());
      await log.add(events);
      const now = at(0);
      const first = await log.takeUndispatched('x', now, at(60_000), 10);
      expect(first).toEqual(events.slice(0, 10));
      const holders = ['p', 'q', 'r', 's'];
      const parallel = await Promise.all(holders.map((holder) => log.takeUndispatched(holder, now, at(60_000), 4)));
      // Parallel takers never share an event (on MongoDB some may come back short, having raced for the same ones).
      const ids = parallel.flat().map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBeGreaterThan(0);
      for (const got of parallel) expect(got.length).toBeLessThanOrEqual(4);
      const rest = await log.takeUndispatched('u', now, at(60_000), 100);
      expect([...ids, ...rest.map((e) => e.id)].sort()).toEqual(events.slice(10).map((e) => e.id).sort());
      // Only the holder's own are marked: a mixed list marks those, and no others.
      const index = parallel.findIndex((got) => got.length > 0);
      const mine = parallel[index]!.map((e) => e.id);
      expect(await log.markDispatched([...mine, first[0]!.id, 'no-such-event'], holders[index]!)).toBe(mine.length);
      expect(await log.markDispatched(first.map((e) => e.id), 'x')).toBe(10);
      // A lease run out hands the rest out again; the dispatched never come back.
      const again = await log.takeUndispatched('t', at(60_000), at(120_000), 100);
      expect(again.map((e) => e.id).sort()).toEqual(events.slice(10).map((e) => e.id).filter((id) => !mine.includes(id)).sort());
    });

    it('adds a batch in one write; a repeated id is refused without keeping the others out', async () => {
      const a = anEvent();
      const b = anEvent();
      await log.add([a]);
      await expect(log.add([a, b])).rejects.toThrow();
      expect(await log.page({ ownerId: 'alice' }, null, 10)).toEqual([b, a]);
      await log.add([]);
    });
  });
}

function aHook(overrides: Partial<Webhook> = {}): Webhook {
  made++;
  return {
    id: `hook-${made}`,
    ownerId: 'alice',
    url: 'https://hooks.example.com/',
    events: ['share.viewed'],
    shareIds: null,
    secret: 'secret',
    createdAt: at(made),
    disabledReason: null,
    ...overrides,
  };
}

export function webhookRepositoryContract(name: string, make: () => Promise<WebhookRepository>): void {
  describe(name, () => {
    let hooks: WebhookRepository;
    beforeEach(async () => {
      hooks = await make();
    });

    it(`takes at most ${WEBHOOKS_PER_USER} per owner, exactly, under parallel adds`, async () => {
      const results = await Promise.all(Array.from({ length: WEBHOOKS_PER_USER + 5 }, () => hooks.add(aHook())));
      expect(results.filter(Boolean)).toHaveLength(WEBHOOKS_PER_USER);
      expect(await hooks.listByOwner('alice')).toHaveLength(WEBHOOKS_PER_USER);
      expect(await hooks.add(aHook({ ownerId: 'bob' }))).toBe(true);
    });

    it('finds, updates, disables, re-enables and deletes one', async () => {
      const hook = aHook();
      await hooks.add(hook);
      expect(await hooks.findById(hook.id)).toEqual(hook);
      expect(await hooks.update(hook.id, { url: 'https://other.example.com/', shareIds: ['s1'] })).toEqual({ ...hook, url: 'https://other.example.com/', shareIds: ['s1'] });
      await hooks.disable(hook.id, 'because');
      expect((await hooks.findById(hook.id))?.disabledReason).toBe('because');
      expect((await hooks.update(hook.id, { enabled: true }))?.disabledReason).toBeNull();
      expect(await hooks.delete(hook.id)).toBe(true);
      expect(await hooks.delete(hook.id)).toBe(false);
      expect(await hooks.findById(hook.id)).toBeNull();
      expect(await hooks.update(hook.id, { url: 'https://x.example.com/' })).toBeNull();
    });

    it('removes an owner\'s webhooks', async () => {
      await hooks.add(aHook());
      await hooks.add(aHook({ ownerId: 'bob' }));
      await hooks.removeOwner('alice');
      expect(await hooks.listByOwner('alice')).toEqual([]);
      expect(await hooks.listByOwner('bob')).toHaveLength(1);
    });
  });
}

function aDelivery(overrides: Partial<Delivery> = {}): Delivery {
  made++;
  return {
    id: `event-${made}`,
    webhookId: 'hook-1',
    ownerId: 'alice',
    type: 'share.viewed',
    body: '{}',
    createdAt: at(0),
    attempts: 0,
    state: 'pending',
    nextAttemptAt: at(0),
    lastStatus: null,
    lastError: null,
    deliveredAt: null,
    leaseHolder: null,
    leaseUntil: null,
    ...overrides,
  };
}

export function deliveryRepositoryContract(name: string, make: () => Promise<DeliveryRepository>): void {
  describe(name, () => {
    let rows: DeliveryRepository;
    beforeEach(async () => {
      rows = await make();
    });

    it('enqueues a webhook\'s event once, however often it is dispatched', async () => {
      const row = aDelivery();
      await rows.enqueue([row]);
      await rows.enqueue([{ ...row, body: 'second' }]);
      await rows.enqueue([{ ...row, webhookId: 'hook-2' }]);
      expect(await rows.listByWebhook('hook-1', 10)).toEqual([row]);
      expect(await rows.listByWebhook('hook-2', 10)).toHaveLength(1);
    });

    it('hands a due row to one taker at a time; only the lease holder settles it', async () => {
      const row = aDelivery();
      await rows.enqueue([row]);
      const taken = await Promise.all(['x', 'y', 'z'].map((h) => rows.takeDue(h, at(0), at(60_000))));
      expect(taken.filter((r) => r !== null)).toHaveLength(1);
      const holder = taken.find((r) => r !== null)!.leaseHolder!;
      const key = { webhookId: row.webhookId, id: row.id };
      const outcome = { attempts: 1, state: 'pending' as const, nextAttemptAt: at(10_000), lastStatus: 500, lastError: 'answered 500', deliveredAt: null };
      expect(await rows.settle(key, 'someone else', outcome)).toBe(false);
      expect(await rows.settle(key, holder, outcome)).toBe(true);
      // Not due before its next attempt.
      expect(await rows.takeDue('x', at(9_999), at(70_000))).toBeNull();
      expect(await rows.takeDue('x', at(10_000), at(70_000))).toMatchObject({ id: row.id, attempts: 1, lastStatus: 500 });
      // A lease that runs out frees the row for another.
      expect(await rows.takeDue('y', at(70_000), at(130_000))).toMatchObject({ id: row.id, leaseHolder: 'y' });
    });

    it('never hands out a delivered or failed row; removes by webhook and by age', async () => {
      await rows.enqueue([aDelivery({ state: 'delivered' }), aDelivery({ state: 'failed' })]);
      expect(await rows.takeDue('x', at(1e9), at(2e9))).toBeNull();
      await rows.enqueue([aDelivery({ webhookId: 'hook-9', createdAt: at(5) })]);
      await rows.removeByWebhook('hook-1');
      expect(await rows.listByWebhook('hook-1', 10)).toEqual([]);
      expect(await rows.sweep(at(6))).toBe(1);
      expect(await rows.listByWebhook('hook-9', 10)).toEqual([]);
    });
  });
}

export function mailNoticesContract(name: string, make: () => Promise<MailNotices>): void {
  describe(name, () => {
    let notices: MailNotices;
    beforeEach(async () => {
      notices = await make();
    });

    it('keeps one address per user', async () => {
      await notices.setAddress('alice', 'alice@example.com');
      expect(await notices.address('alice')).toBe('alice@example.com');
      await notices.setAddress('alice', null);
      expect(await notices.address('alice')).toBeNull();
    });

    it('marks only what has notices on; one taker at a time; at most one mail per gap', async () => {
      await notices.setWanted('share:s1', 'alice', true, at(0));
      await notices.mark('share:s2');
      expect(await notices.wanted(['share:s1', 'share:s2'])).toEqual(new Set(['share:s1']));
      expect(await notices.takeDue('x', at(0), at(60_000), 600_000)).toBeNull();
      await notices.mark('share:s1');
      const taken = await Promise.all(['x', 'y'].map((h) => notices.takeDue(h, at(1), at(60_000), 600_000)));
      expect(taken.filter((n) => n !== null)).toHaveLength(1);
      const holder = taken[0] ? 'x' : 'y';
      expect(taken.find((n) => n !== null)).toMatchObject({ key: 'share:s1', ownerId: 'alice', lastSentAt: null, covered: null });
      expect(await notices.sent('share:s1', 'someone else', at(2), null)).toBe(false);
      const covered = { at: at(1), ids: ['e1'] };
      expect(await notices.sent('share:s1', holder, at(2), covered)).toBe(true);
      await notices.mark('share:s1');
      // Not before the gap has passed since the last mail.
      expect(await notices.takeDue('x', at(600_001), at(700_000), 600_000)).toBeNull();
      expect(await notices.takeDue('x', at(600_002), at(700_000), 600_000)).toMatchObject({ lastSentAt: at(2), covered });
    });

    it('a mark while a mail is being sent keeps the record pending', async () => {
      await notices.setWanted('request:r1', 'alice', true, at(0));
      await notices.mark('request:r1');
      expect(await notices.takeDue('x', at(1), at(60_000), 600_000)).not.toBeNull();
      await notices.mark('request:r1');
      await notices.sent('request:r1', 'x', at(2), null);
      expect(await notices.takeDue('y', at(700_000), at(800_000), 600_000)).not.toBeNull();
    });

    it('off and forgotten: nothing is due', async () => {
      await notices.setWanted('share:s1', 'alice', true, at(0));
      await notices.mark('share:s1');
      await notices.setWanted('share:s1', 'alice', false, at(1));
      expect(await notices.takeDue('x', at(2), at(60_000), 600_000)).toBeNull();
      await notices.setWanted('share:s2', 'alice', true, at(0));
      await notices.mark('share:s2');
      await notices.forget(['share:s2']);
      expect(await notices.takeDue('x', at(2), at(60_000), 600_000)).toBeNull();
      expect(await notices.wanted(['share:s1', 'share:s2'])).toEqual(new Set());
    });
  });
}
