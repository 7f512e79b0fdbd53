import type { Actor } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';
import { newDelivery } from './new-delivery.js';
import { ownWebhook } from './webhook-access.js';
import { deliveryView, type DeliveryView } from './webhook-views.js';

type Deps = Pick<Ports, 'webhooks' | 'deliveries' | 'ids' | 'clock'>;

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
