import { notFound, type Actor } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';
import { checked, ownWebhook, type WebhookInput } from './webhook-access.js';
import { webhookView, type WebhookView } from './webhook-views.js';

type Deps = Pick<Ports, 'webhooks' | 'webhookSender' | 'shares'>;

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
