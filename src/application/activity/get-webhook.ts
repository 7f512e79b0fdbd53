import type { Actor } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';
import { ownWebhook } from './webhook-access.js';
import { webhookView, type WebhookView } from './webhook-views.js';

type Deps = Pick<Ports, 'webhooks'>;

export class GetWebhook {
  constructor(private readonly p: Deps) {}

  async execute({ actor, id }: { actor: Actor; id: string }): Promise<WebhookView> {
    return webhookView(await ownWebhook(this.p, actor, id));
  }
}
