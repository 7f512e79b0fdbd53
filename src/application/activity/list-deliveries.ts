import type { Actor } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';
import { ownWebhook } from './webhook-access.js';
import { deliveryView, type DeliveryView } from './webhook-views.js';

type Deps = Pick<Ports, 'webhooks' | 'deliveries'>;

/** The deliveries a webhook's page lists. */
const DELIVERIES_SHOWN = 100;

export class ListDeliveries {
  constructor(private readonly p: Deps) {}

  async execute({ actor, id }: { actor: Actor; id: string }): Promise<DeliveryView[]> {
    await ownWebhook(this.p, actor, id);
    return (await this.p.deliveries.listByWebhook(id, DELIVERIES_SHOWN)).map(deliveryView);
  }
}
