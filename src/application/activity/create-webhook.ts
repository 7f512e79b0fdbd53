import { DomainError, type Actor, type WebhookEventType } from '../../domain/index.js';
import { WEBHOOKS_PER_USER, type Ports, type Webhook } from '../ports/index.js';
import { checked, may } from './webhook-access.js';
import { webhookView, type CreatedWebhookView } from './webhook-views.js';

type Deps = Pick<Ports, 'webhooks' | 'webhookSender' | 'shares' | 'ids' | 'secrets' | 'clock'>;

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
