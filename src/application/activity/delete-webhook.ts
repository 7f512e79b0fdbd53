import { notFound, type Actor } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';
import { ownWebhook } from './webhook-access.js';

type Deps = Pick<Ports, 'webhooks' | 'deliveries'>;

/** The webhook goes, and its deliveries with it: nothing more is sent to it. */
export class DeleteWebhook {
  constructor(private readonly p: Deps) {}

  async execute({ actor, id }: { actor: Actor; id: string }): Promise<void> {
    await ownWebhook(this.p, actor, id);
    if (!(await this.p.webhooks.delete(id))) throw notFound('Webhook');
    await this.p.deliveries.removeByWebhook(id);
  }
}
