import type { Delivery, Webhook } from '../ports/index.js';
import { isoTime } from '../iso-time.js';

export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  shareIds: string[] | null;
  createdAt: string;
  enabled: boolean;
  /** Why deliveries stopped; null while enabled. */
  disabledReason: string | null;
}

export interface CreatedWebhookView extends WebhookView {
  /** The HMAC key of the signatures: shown only in this answer. */
  secret: string;
}

export interface DeliveryView {
  /** The webhook event's id: the same on every attempt. */
  id: string;
  type: string;
  state: Delivery['state'];
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  /** When it is tried next; null once delivered or given up. */
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

export function webhookView(hook: Webhook): WebhookView {
  return {
    id: hook.id,
    url: hook.url,
    events: [...hook.events],
    shareIds: hook.shareIds && [...hook.shareIds],
    createdAt: isoTime(hook.createdAt),
    enabled: hook.disabledReason === null,
    disabledReason: hook.disabledReason,
  };
}

export function deliveryView(row: Delivery): DeliveryView {
  return {
    id: row.id,
    type: row.type,
    state: row.state,
    attempts: row.attempts,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    nextAttemptAt: row.state === 'pending' ? isoTime(row.nextAttemptAt) : null,
    deliveredAt: row.deliveredAt && isoTime(row.deliveredAt),
    createdAt: isoTime(row.createdAt),
  };
}
