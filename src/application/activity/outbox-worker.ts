import { webhookTypesOf, type ActivityEvent, type WebhookEventType } from '../../domain/index.js';
import type { Delivery, Ports, Webhook } from '../ports/index.js';
import { isoTime } from '../iso-time.js';
import { activityView } from './activity-views.js';
import { newDelivery } from './new-delivery.js';
import { MAIL_GAP_MS, mailOne, noticeKeyOf } from './mail-notices.js';

export type OutboxDeps = Pick<Ports, 'activityLog' | 'webhooks' | 'deliveries' | 'webhookSender' | 'clock' | 'instance' | 'mailNotices' | 'mailer'>;

/** A taken event or delivery is this instance's for this long: well over the 10 s an attempt may wait. */
export const OUTBOX_LEASE_MS = 60_000;
export { MAIL_GAP_MS };
/** Retries go on this long after the event; then the webhook is disabled and says why. */
export const RETRY_FOR_MS = 24 * 60 * 60 * 1000;
const FIRST_RETRY_MS = 10_000;
const MAX_RETRY_MS = 60 * 60 * 1000;
/** What one step does at most of each, so a backlog never holds one loop turn for long. */
const BATCH = 100;

/** 10 s, 20 s, 40 s, … doubling after each failed attempt, at most an hour apart. */
export function retryDelay(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

/**
 * The id a webhook event carries: the activity event's own, and for the `limit.reached` the same read told, that id
 * with `.limit`. Receivers de-duplicate on it: every attempt of one delivery sends the same.
 */
const eventIdOf = (event: ActivityEvent, type: WebhookEventType) => (type === 'limit.reached' ? `${event.id}.limit` : event.id);

function listens(hook: Webhook, event: ActivityEvent, type: WebhookEventType): boolean {
  if (hook.disabledReason !== null || !hook.events.includes(type)) return false;
  return hook.shareIds === null || (event.shareId !== null && hook.shareIds.includes(event.shareId));
}

/** The fixed body of one webhook event: `{id, type, createdAt, data}`, data the event as its owner reads it. */
function bodyOf(event: ActivityEvent, type: WebhookEventType): string {
  const data = { ...activityView(event), ...(type === 'limit.reached' && { limit: event.limitReached }) };
  return JSON.stringify({ id: eventIdOf(event, type), type, createdAt: isoTime(event.at), data });
}

/**
 * One instance's share of the outbox. Events wait in the activity log until one instance takes each (a lease in one
 * conditional update) and turns it into deliveries, one per listening webhook, added idempotently; then marks it
 * dispatched. Deliveries are taken the same way, one attempt each. A lease that runs out (the instance died) frees
 * the event or delivery for any instance: nothing is lost, and a receiver may see an event again only when an
 * instance died after sending it and before writing so, which the event id lets it recognise.
 */
export class OutboxWorker {
  constructor(
    private readonly p: OutboxDeps,
    /** How long a taken event or delivery stays this instance's (tests shorten it). */
    private readonly leaseMs = OUTBOX_LEASE_MS,
  ) {}

  /**
   * One turn: dispatch waiting events, then attempt due deliveries and mails. Returns how many of each it handled, and
   * whether any of them stopped at a full batch (more may be waiting).
   */
  async step(): Promise<{ dispatched: number; attempted: number; full: boolean }> {
    const dispatched = await this.dispatchSome();
    let attempted = 0;
    while (attempted < BATCH && (await this.deliverOne())) attempted++;
    let mailed = 0;
    while (this.p.mailer.available && mailed < BATCH && (await mailOne(this.p))) mailed++;
    return { dispatched, attempted: attempted + mailed, full: dispatched === BATCH || attempted === BATCH || mailed === BATCH };
  }

  /**
   * Takes up to a batch of waiting events and turns them into deliveries (one per listening webhook, added
   * idempotently) and mail marks, then marks them dispatched: a few writes for the batch, however many reads it
   * holds, with each owner's webhooks read once. Returns how many it took.
   */
  async dispatchSome(): Promise<number> {
    const now = this.p.clock.now();
    const holder = this.p.instance.id();
    const events = await this.p.activityLog.takeUndispatched(holder, now, new Date(now.getTime() + this.leaseMs), BATCH);
    if (events.length === 0) return 0;
    const owners = new Set(events.filter((event) => webhookTypesOf(event).length > 0).map((event) => event.ownerId));
    const hooksOf = new Map(await Promise.all([...owners].map(async (owner) => [owner, await this.p.webhooks.listByOwner(owner)] as const)));
    const rows: Delivery[] = [];
    for (const event of events) {
      const listening = hooksOf.get(event.ownerId);
      // Most events have no webhook of their owner's to go to: nothing to work out for them.
      if (listening === undefined || listening.length === 0) continue;
      for (const type of webhookTypesOf(event)) {
        for (const hook of listening) {
          if (listens(hook, event, type)) rows.push(newDelivery({ id: eventIdOf(event, type), webhookId: hook.id, ownerId: hook.ownerId, type, body: bodyOf(event, type) }, now));
        }
      }
    }
    if (rows.length > 0) await this.p.deliveries.enqueue(rows);
    if (this.p.mailer.available) {
      const keys = new Set(events.map(noticeKeyOf).filter((key) => key !== null));
      for (const key of keys) await this.p.mailNotices.mark(key);
    }
    await this.p.activityLog.markDispatched(
      events.map((event) => event.id),
      holder,
    );
    return events.length;
  }

  async deliverOne(): Promise<boolean> {
    const now = this.p.clock.now();
    const holder = this.p.instance.id();
    const row = await this.p.deliveries.takeDue(holder, now, new Date(now.getTime() + this.leaseMs));
    if (!row) return false;
    const hook = await this.p.webhooks.findById(row.webhookId);
    const key = { webhookId: row.webhookId, id: row.id };
    if (!hook || hook.disabledReason !== null) {
      const why = hook ? `webhook disabled: ${hook.disabledReason}` : 'webhook deleted';
      await this.p.deliveries.settle(key, holder, { ...outcomeOf(row), state: 'failed', lastError: why });
      return true;
    }
    const result = await this.p.webhookSender.send(hook, row.body, now);
    const done = this.p.clock.now();
    const attempts = row.attempts + 1;
    if ('status' in result && result.status >= 200 && result.status < 300) {
      await this.p.deliveries.settle(key, holder, { attempts, state: 'delivered', nextAttemptAt: done, lastStatus: result.status, lastError: null, deliveredAt: done });
      return true;
    }
    const lastStatus = 'status' in result ? result.status : null;
    const lastError = 'error' in result ? result.error : `answered ${result.status}`;
    const next = new Date(done.getTime() + retryDelay(attempts));
    if (next.getTime() - row.createdAt.getTime() > RETRY_FOR_MS) {
      await this.p.deliveries.settle(key, holder, { attempts, state: 'failed', nextAttemptAt: done, lastStatus, lastError, deliveredAt: null });
      await this.p.webhooks.disable(hook.id, `no delivery succeeded for 24 hours (event ${row.id}; last: ${lastError})`);
      return true;
    }
    await this.p.deliveries.settle(key, holder, { attempts, state: 'pending', nextAttemptAt: next, lastStatus, lastError, deliveredAt: null });
    return true;
  }
}

const outcomeOf = (row: Delivery) => ({
  attempts: row.attempts,
  nextAttemptAt: row.nextAttemptAt,
  lastStatus: row.lastStatus,
  lastError: row.lastError,
  deliveredAt: row.deliveredAt,
});
