import type { Actor } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';
import { may } from './webhook-access.js';
import { webhookView, type WebhookView } from './webhook-views.js';

type Deps = Pick<Ports, 'webhooks'>;

export class ListWebhooks {
  constructor(private readonly p: Deps) {}

  async execute({ actor }: { actor: Actor }): Promise<WebhookView[]> {
    may(actor);
    return (await this.p.webhooks.listByOwner(actor.userId)).map(webhookView);
  }
}
