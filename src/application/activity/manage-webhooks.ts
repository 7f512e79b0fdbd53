import { DomainError, WEBHOOK_EVENT_TYPES, assertMay, badRequest, notFound, type Actor, type WebhookEventType } from '../../domain/index.js';
import { owned } from '../owned.js';
import { WEBHOOKS_PER_USER, type Delivery, type Ports, type Webhook } from '../ports/index.js';
import { deliveryView, webhookView, type CreatedWebhookView, type DeliveryView, type WebhookView } from './webhook-views.js';

type Deps = Pick<Ports, 'webhooks' | 'deliveries' | 'webhookSender' | 'shares' | 'ids' | 'secrets' | 'clock'>;

export interface WebhookInput {
  url?: string;
  events?: WebhookEventType[];
  shareIds?: string[] | null;
}

/** The deliveries a webhook's page lists. */
const DELIVERIES_SHOWN = 100;

/** Webhooks are managed from a session only (assertMay refuses every API token). */
function may(actor: Actor): void {
  assertMay(actor, 'webhook.manage');
}

async function ownWebhook(p: Deps, actor: Actor, id: string): Promise<Webhook> {
  may(actor);
  return owned(await p.webhooks.findById(id), actor.userId, 'Webhook');
}

async function checked(p: Deps, actor: Actor, input: WebhookInput): Promise<WebhookInput> {
  if (input.url !== undefined) p.webhookSender.checkUrl(input.url);
  if (input.events !== undefined) {
    if (input.events.length === 0) throw badRequest('events: name at least one event', { field: 'events' });
    if (input.events.some((e) => !WEBHOOK_EVENT_TYPES.includes(e))) throw badRequest('events: unknown event', { field: 'events' });
  }
  for (const shareId of input.shareIds ?? []) {
    const share = await p.shares.findById(shareId);
    if (!share || share.ownerId !== actor.userId) throw badRequest(`shareIds: no share of yours has the id ${shareId}`, { field: 'shareIds' });
  }
  return { ...input, ...(input.events && { events: [...new Set(input.events)] }), ...(input.shareIds && { shareIds: [...new Set(input.shareIds)] }) };
}

/** A new webhook and its secret (shown only here); at most WEBHOOKS_PER_USER per user, in one conditional update. */
export class CreateWebhook {
  constructor(private readonly p: Deps) {}

  async execute({ actor, ...input }: { actor: Actor; url: string; events: WebhookEventType[]; shareIds?: string[] | null }): Promise<CreatedWebhookView> {
    may(actor);
    const valid = await checked(this.p, actor, input);
    const hook: Webhook = {
      id: this.p.ids.newId(),
      ownerId: actor.userId,
      url: input.url,
      events: valid.events ?? input.events,
      shareIds: valid.shareIds ?? null,
      secret: this.p.secrets.newSecret(),
      createdAt: this.p.clock.now(),
      disabledReason: null,
    };
    if (!(await this.p.webhooks.add(hook))) {
      throw new DomainError('limit_reached', `The webhooks limit has been reached: at most ${WEBHOOKS_PER_USER} per user`, {
        limit: 'webhooks',
        max: WEBHOOKS_PER_USER,
      });
    }
    return { ...webhookView(hook), secret: hook.secret };
  }
}

export class ListWebhooks {
  constructor(private readonly p: Deps) {}

  async execute({ actor }: { actor: Actor }): Promise<WebhookView[]> {
    may(actor);
    return (await this.p.webhooks.listByOwner(actor.userId)).map(webhookView);
  }
}

export class GetWebhook {
  constructor(private readonly p: Deps) {}

  async execute({ actor, id }: { actor: Actor; id: string }): Promise<WebhookView> {
    return webhookView(await ownWebhook(this.p, actor, id));
  }
}

/** Changes what is given; `enabled: true` turns a disabled webhook back on (its failed deliveries stay failed). */
export class UpdateWebhook {
  constructor(private readonly p: Deps) {}

  async execute({ actor, id, enabled, ...input }: { actor: Actor; id: string; enabled?: true } & WebhookInput): Promise<WebhookView> {
    await ownWebhook(this.p, actor, id);
    const valid = await checked(this.p, actor, input);
    const updated = await this.p.webhooks.update(id, { ...valid, ...(enabled && { enabled }) });
    if (!updated) throw notFound('Webhook');
    return webhookView(updated);
  }
}

/** The webhook goes, and its deliveries with it: nothing more is sent to it. */
export class DeleteWebhook {
  constructor(private readonly p: Deps) {}

  async execute({ actor, id }: { actor: Actor; id: string }): Promise<void> {
    await ownWebhook(this.p, actor, id);
    if (!(await this.p.webhooks.delete(id))) throw notFound('Webhook');
    await this.p.deliveries.removeByWebhook(id);
  }
}

export class ListDeliveries {
  constructor(private readonly p: Deps) {}

  async execute({ actor, id }: { actor: Actor; id: string }): Promise<DeliveryView[]> {
    await ownWebhook(this.p, actor, id);
    return (await this.p.deliveries.listByWebhook(id, DELIVERIES_SHOWN)).map(deliveryView);
  }
}

/**
 * Queues a `ping` event for the webhook, delivered as every other (signed, retried) by whichever instance takes it;
 * the answer is the queued delivery, which its deliveries list then follows.
 */
export class TestWebhook {
  constructor(private readonly p: Deps) {}

  async execute({ actor, id }: { actor: Actor; id: string }): Promise<DeliveryView> {
    const hook = await ownWebhook(this.p, actor, id);
    const now = this.p.clock.now();
    const eventId = this.p.ids.newId();
    const body = JSON.stringify({ id: eventId, type: 'ping', createdAt: now.toISOString(), data: { webhookId: hook.id } });
    const row = newDelivery({ id: eventId, webhookId: hook.id, ownerId: hook.ownerId, type: 'ping', body }, now);
    await this.p.deliveries.enqueue([row]);
    return deliveryView(row);
  }
}

export function newDelivery(row: Pick<Delivery, 'id' | 'webhookId' | 'ownerId' | 'type' | 'body'>, now: Date): Delivery {
  return {
    ...row,
    createdAt: now,
    attempts: 0,
    state: 'pending',
    nextAttemptAt: now,
    lastStatus: null,
    lastError: null,
    deliveredAt: null,
    leaseHolder: null,
    leaseUntil: null,
  };
}
