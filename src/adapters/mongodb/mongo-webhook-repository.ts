import { inject, injectable } from 'inversify';
import type { Collection, Db } from 'mongodb';
import { WEBHOOKS_PER_USER, type Webhook, type WebhookChanges, type WebhookRepository } from '../../application/ports/index.js';
import { isDuplicateKey } from './duplicate-key.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';

type StoredHook = Omit<Webhook, 'ownerId'>;

/** One document per user holding their webhooks: the maximum is one conditional update of that document. */
interface OwnerDoc {
  _id: string;
  hooks: StoredHook[];
}

const toWebhook = (ownerId: string, hook: StoredHook): Webhook => ({ ...hook, ownerId });

@injectable()
export class MongoWebhookRepository implements WebhookRepository {
  private readonly owners: Collection<OwnerDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.owners = db.collection<OwnerDoc>(COLLECTIONS.webhooks);
  }

  /**
   * Pushes the webhook only while the owner's list has no WEBHOOKS_PER_USER-th entry; with upsert, a full list makes
   * the insert of a second document of that _id fail (E11000), which is the refusal.
   */
  async add(webhook: Webhook): Promise<boolean> {
    const { ownerId, ...hook } = webhook;
    try {
      await this.owners.updateOne(
        { _id: ownerId, [`hooks.${WEBHOOKS_PER_USER - 1}`]: { $exists: false } },
        { $push: { hooks: hook } },
        { upsert: true },
      );
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  async listByOwner(ownerId: string): Promise<Webhook[]> {
    const doc = await this.owners.findOne({ _id: ownerId });
    return (doc?.hooks ?? []).map((hook) => toWebhook(ownerId, hook));
  }

  async findById(id: string): Promise<Webhook | null> {
    const doc = await this.owners.findOne({ 'hooks.id': id }, { projection: { 'hooks.$': 1 } });
    const hook = doc?.hooks[0];
    return doc && hook ? toWebhook(doc._id, hook) : null;
  }

  async update(id: string, { enabled, ...changes }: WebhookChanges): Promise<Webhook | null> {
    const set: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(changes)) if (value !== undefined) set[`hooks.$.${field}`] = value;
    if (enabled) set['hooks.$.disabledReason'] = null;
    if (Object.keys(set).length > 0) await this.owners.updateOne({ 'hooks.id': id }, { $set: set });
    return this.findById(id);
  }

  async disable(id: string, reason: string): Promise<void> {
    await this.owners.updateOne({ 'hooks.id': id }, { $set: { 'hooks.$.disabledReason': reason } });
  }

  async delete(id: string): Promise<boolean> {
    const { modifiedCount } = await this.owners.updateOne({ 'hooks.id': id }, { $pull: { hooks: { id } } });
    return modifiedCount === 1;
  }

  async removeOwner(ownerId: string): Promise<void> {
    await this.owners.deleteOne({ _id: ownerId });
  }
}
