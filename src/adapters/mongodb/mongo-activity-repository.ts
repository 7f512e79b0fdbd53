import { inject, injectable } from 'inversify';
import type { Collection, Db, Filter } from 'mongodb';
import type { ActivityClient, ActivityEvent, ActivityKind } from '../../domain/index.js';
import type { ActivityFilter, ActivityKey, ActivityRepository } from '../../application/ports/index.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';

/** ACTIVITY_RETENTION_DAYS in milliseconds: each event carries its own end, which the TTL index honours. */
export const ActivityRetention = Symbol('ActivityRetention');

interface ActivityDoc {
  _id: string;
  at: Date;
  ownerId: string;
  shareId: string | null;
  requestId: string | null;
  kind: ActivityKind;
  fileId: string | null;
  bytes: number | null;
  complete: boolean | null;
  client: ActivityClient;
  limitReached: 'views' | 'downloads' | null;
  dispatched: boolean;
  leaseHolder: string | null;
  leaseUntil: Date | null;
  /** The TTL index removes the event at this time. */
  expiresAt: Date;
}

const toEvent = (doc: ActivityDoc): ActivityEvent => ({
  id: doc._id,
  at: doc.at,
  ownerId: doc.ownerId,
  shareId: doc.shareId,
  requestId: doc.requestId,
  kind: doc.kind,
  fileId: doc.fileId,
  bytes: doc.bytes,
  complete: doc.complete,
  client: doc.client,
  limitReached: doc.limitReached,
});

/** One document per event; the owner's listings walk the (ownerId, at, _id) indexes newest first. */
@injectable()
export class MongoActivityRepository implements ActivityRepository {
  private readonly events: Collection<ActivityDoc>;

  constructor(
    @inject(MongoDb) db: Db,
    @inject(ActivityRetention) private readonly retentionMs: number,
  ) {
    this.events = db.collection<ActivityDoc>(COLLECTIONS.activity);
  }

  async add(event: ActivityEvent): Promise<void> {
    const { id, ...rest } = event;
    const expiresAt = new Date(event.at.getTime() + this.retentionMs);
    await this.events.insertOne({ _id: id, ...rest, dispatched: false, leaseHolder: null, leaseUntil: null, expiresAt });
  }

  async page(filter: ActivityFilter, after: ActivityKey | null, limit: number): Promise<ActivityEvent[]> {
    const query: Filter<ActivityDoc> = { ownerId: filter.ownerId };
    if (filter.shareId !== undefined) query.shareId = filter.shareId;
    if (filter.requestId !== undefined) query.requestId = filter.requestId;
    if (filter.kind !== undefined) query.kind = filter.kind;
    if (after) query.$or = [{ at: { $lt: after.at } }, { at: after.at, _id: { $lt: after.id } }];
    const docs = await this.events.find(query).sort({ at: -1, _id: -1 }).limit(limit).toArray();
    return docs.map(toEvent);
  }

  async since(target: { shareId: string } | { requestId: string }, since: Date, limit: number): Promise<ActivityEvent[]> {
    const query: Filter<ActivityDoc> = 'shareId' in target ? { shareId: target.shareId } : { requestId: target.requestId };
    const docs = await this.events.find({ ...query, at: { $gte: since } }).sort({ at: 1, _id: 1 }).limit(limit).toArray();
    return docs.map(toEvent);
  }

  async removeFor(target: { shareIds?: readonly string[]; requestIds?: readonly string[] }): Promise<void> {
    const or: Filter<ActivityDoc>[] = [];
    if (target.shareIds?.length) or.push({ shareId: { $in: [...target.shareIds] } });
    if (target.requestIds?.length) or.push({ requestId: { $in: [...target.requestIds] } });
    if (or.length > 0) await this.events.deleteMany({ $or: or });
  }

  async sweep(before: Date): Promise<number> {
    return (await this.events.deleteMany({ at: { $lt: before } })).deletedCount;
  }

  async takeUndispatched(holder: string, now: Date, until: Date): Promise<ActivityEvent | null> {
    const doc = await this.events.findOneAndUpdate(
      { dispatched: false, $or: [{ leaseUntil: null }, { leaseUntil: { $lte: now } }] },
      { $set: { leaseHolder: holder, leaseUntil: until } },
      { sort: { at: 1 }, returnDocument: 'after' },
    );
    return doc ? toEvent(doc) : null;
  }

  async markDispatched(id: string, holder: string): Promise<boolean> {
    const { matchedCount } = await this.events.updateOne(
      { _id: id, dispatched: false, leaseHolder: holder },
      { $set: { dispatched: true, leaseHolder: null, leaseUntil: null } },
    );
    return matchedCount === 1;
  }
}
