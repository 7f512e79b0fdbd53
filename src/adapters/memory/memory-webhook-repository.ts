import { injectable } from 'inversify';
import { WEBHOOKS_PER_USER, type Webhook, type WebhookChanges, type WebhookRepository } from '../../application/ports/index.js';
import { clone } from './clone.js';

/** Each change checks and writes in one synchronous step, as MongoDB's conditional update does. */
@injectable()
export class MemoryWebhookRepository implements WebhookRepository {
  private readonly hooks = new Map<string, Webhook>();

  async add(webhook: Webhook): Promise<boolean> {
    if ([...this.hooks.values()].filter((h) => h.ownerId === webhook.ownerId).length >= WEBHOOKS_PER_USER) return false;
    this.hooks.set(webhook.id, clone(webhook));
    return true;
  }

  async listByOwner(ownerId: string): Promise<Webhook[]> {
    return [...this.hooks.values()]
      .filter((h) => h.ownerId === ownerId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .map(clone);
  }

  async findById(id: string): Promise<Webhook | null> {
    const hook = this.hooks.get(id);
    return hook ? clone(hook) : null;
  }

  async update(id: string, { enabled, ...changes }: WebhookChanges): Promise<Webhook | null> {
    const hook = this.hooks.get(id);
    if (!hook) return null;
    const next = clone({ ...hook, ...changes, ...(enabled && { disabledReason: null }) });
    this.hooks.set(id, next);
    return clone(next);
  }

  async disable(id: string, reason: string): Promise<void> {
    const hook = this.hooks.get(id);
    if (hook) hook.disabledReason = reason;
  }

  async delete(id: string): Promise<boolean> {
    return this.hooks.delete(id);
  }

  async removeOwner(ownerId: string): Promise<void> {
    for (const [id, hook] of this.hooks) if (hook.ownerId === ownerId) this.hooks.delete(id);
  }
}
