import { inject, injectable } from 'inversify';
import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
import type { Delivery, DeliveryRepository } from '../../application/ports/index.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';

interface DeliveryDoc extends Omit<Delivery, 'id'> {
  /** `{webhookId}:{event id}`: one row per webhook and event, whoever dispatches the event and how often. */
  _id: string;
  eventId: string;
}

const toDelivery = ({ _id, eventId, ...rest }: DeliveryDoc): Delivery => ({ ...rest, id: eventId });
const keyOf = (row: { webhookId: string; id: string }) => `${row.webhookId}:${row.id}`;

/** The outbox: each row taken with one findOneAndUpdate under a lease. */
@injectable()
export class MongoDeliveryRepository implements DeliveryRepository {
  private readonly rows: Collection<DeliveryDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.rows = db.collection<DeliveryDoc>(COLLECTIONS.webhookDeliveries);
  }

  async enqueue(rows: readonly Delivery[]): Promise<void> {
    if (rows.length === 0) return;
    const ops: AnyBulkWriteOperation<DeliveryDoc>[] = rows.map(({ id, ...row }) => ({
      updateOne: { filter: { _id: keyOf({ webhookId: row.webhookId, id }) }, update: { $setOnInsert: { ...row, eventId: id } }, upsert: true },
    }));
    await this.rows.bulkWrite(ops, { ordered: false });
  }

  async takeDue(holder: string, now: Date, until: Date): Promise<Delivery | null> {
    const doc = await this.rows.findOneAndUpdate(
      { state: 'pending', nextAttemptAt: { $lte: now }, $or: [{ leaseUntil: null }, { leaseUntil: { $lte: now } }] },
      { $set: { leaseHolder: holder, leaseUntil: until } },
      { sort: { nextAttemptAt: 1 }, returnDocument: 'after' },
    );
    return doc ? toDelivery(doc) : null;
  }

  async settle(key: { webhookId: string; id: string }, holder: string, outcome: Parameters<DeliveryRepository['settle']>[2]): Promise<boolean> {
    const { matchedCount } = await this.rows.updateOne(
      { _id: keyOf(key), leaseHolder: holder },
      { $set: { ...outcome, leaseHolder: null, leaseUntil: null } },
    );
    return matchedCount === 1;
  }

  async listByWebhook(webhookId: string, limit: number): Promise<Delivery[]> {
    const docs = await this.rows.find({ webhookId }).sort({ createdAt: -1, _id: -1 }).limit(limit).toArray();
    return docs.map(toDelivery);
  }

  async removeByWebhook(webhookId: string): Promise<void> {
    await this.rows.deleteMany({ webhookId });
  }

  async sweep(before: Date): Promise<number> {
    return (await this.rows.deleteMany({ createdAt: { $lt: before } })).deletedCount;
  }
}
