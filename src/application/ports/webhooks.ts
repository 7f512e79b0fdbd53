import type { WebhookEventType } from '../../domain/index.js';

export interface Webhook {
  id: string;
  ownerId: string;
  url: string;
  events: WebhookEventType[];
  /** Only these shares' events; null: all of the owner's. */
  shareIds: string[] | null;
  /** The HMAC key of its signatures; shown once, when created. */
  secret: string;
  createdAt: Date;
  /** Why deliveries stopped (retried for 24 hours without success); null while it is enabled. */
  disabledReason: string | null;
}

export type WebhookChanges = Partial<Pick<Webhook, 'url' | 'events' | 'shareIds'>> & { enabled?: true };

export const WEBHOOKS_PER_USER = 10;

export const WebhookRepository = Symbol('WebhookRepository');
export interface WebhookRepository {
  /** Adds it unless its owner has WEBHOOKS_PER_USER already: one conditional update; false, changing nothing, then. */
  add(webhook: Webhook): Promise<boolean>;
  listByOwner(ownerId: string): Promise<Webhook[]>;
  findById(id: string): Promise<Webhook | null>;
  /** `enabled: true` clears the reason it was disabled. Null when it does not exist. */
  update(id: string, changes: WebhookChanges): Promise<Webhook | null>;
  disable(id: string, reason: string): Promise<void>;
  delete(id: string): Promise<boolean>;
  removeOwner(ownerId: string): Promise<void>;
}

/** One webhook event to send to one webhook: the outbox row. */
export interface Delivery {
  /** The webhook event id, the receiver's key for de-duplication: the same on every attempt. */
  id: string;
  webhookId: string;
  ownerId: string;
  type: WebhookEventType | 'ping';
  /** The JSON body, fixed when the row is made, so every attempt sends the same bytes. */
  body: string;
  createdAt: Date;
  attempts: number;
  /** `failed`: retried for 24 hours in vain (the webhook was disabled). */
  state: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: Date;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  leaseHolder: string | null;
  leaseUntil: Date | null;
}

export const DeliveryRepository = Symbol('DeliveryRepository');
/** The outbox: rows waiting to be sent, each taken under a lease so exactly one instance sends it at a time. */
export interface DeliveryRepository {
  /** Adds the rows that do not exist yet (by webhook and id): dispatching an event twice makes no second row. */
  enqueue(rows: readonly Delivery[]): Promise<void>;
  /**
   * One pending row due at `now` whose lease is free, taken for `holder` until `until` in one conditional update
   * (one findOneAndUpdate); null when none is due.
   */
  takeDue(holder: string, now: Date, until: Date): Promise<Delivery | null>;
  /** The outcome of an attempt, written only while `holder` holds the row's lease (false otherwise). */
  settle(
    key: { webhookId: string; id: string },
    holder: string,
    outcome: Pick<Delivery, 'attempts' | 'state' | 'nextAttemptAt' | 'lastStatus' | 'lastError' | 'deliveredAt'>,
  ): Promise<boolean>;
  /** A webhook's rows, newest first, at most `limit`. */
  listByWebhook(webhookId: string, limit: number): Promise<Delivery[]>;
  removeByWebhook(webhookId: string): Promise<void>;
  /** Rows older than `before` go (retention, as events). */
  sweep(before: Date): Promise<number>;
}

/** What one attempt came to: the receiver's status, or why no answer came. */
export type AttemptResult = { status: number } | { error: string };

export const WebhookSender = Symbol('WebhookSender');
/**
 * Sends one delivery: a signed POST to the webhook's address, refused before connecting when the address resolves to
 * a range that is not allowed, no redirects followed, a bounded wait.
 */
export interface WebhookSender {
  send(webhook: Pick<Webhook, 'url' | 'secret'>, body: string, now: Date): Promise<AttemptResult>;
  /** Refuses (bad_request) a URL that is not http(s) or names a refused address literally; DNS is checked when sending. */
  checkUrl(url: string): void;
}
