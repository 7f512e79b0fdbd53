import { randomUUID } from 'node:crypto';
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
  /** Which take of the holder's set the lease: a batch reads back exactly what its one update took. */
  leaseTake: string | null;
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

  /** One unordered insertMany: an event that fails (a repeated id) keeps none of the others out. */
  async add(events: readonly ActivityEvent[]): Promise<void> {
    if (events.length === 0) return;
    const docs = events.map(({ id, ...rest }) => {
      const expiresAt = new Date(rest.at.getTime() + this.retentionMs);
      return { _id: id, ...rest, dispatched: false, leaseHolder: null, leaseTake: null, leaseUntil: null, expiresAt };
    });
    await this.events.insertMany(docs, { ordered: false });
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

  /**
   * Three commands whatever the batch (two more for each retry after losing every candidate): the oldest free
   * candidates, one update leasing those still free (the filter checks each again, so one another instance took in
   * between stays its), and a read of what this take leased.
   */
  async takeUndispatched(holder: string, now: Date, until: Date, limit: number): Promise<ActivityEvent[]> {
    const free: Filter<ActivityDoc> = { dispatched: false, $or: [{ leaseUntil: null }, { leaseUntil: { $lte: now } }] };
    // A take that lost every candidate to another instance's looks again (a few times), rather than idle a turn.
    for (let attempt = 0; attempt < 3; attempt++) {
      const candidates = await this.events.find(free, { projection: { _id: 1 } }).sort({ at: 1 }).limit(limit).toArray();
      if (candidates.length === 0) return [];
      const ids = candidates.map((doc) => doc._id);
      const take = randomUUID();
      const { modifiedCount } = await this.events.updateMany(
        { _id: { $in: ids }, ...free },
        { $set: { leaseHolder: holder, leaseTake: take, leaseUntil: until } },
      );
      if (modifiedCount === 0) continue;
      const docs = await this.events.find({ _id: { $in: ids }, leaseTake: take }).sort({ at: 1, _id: 1 }).toArray();
      return docs.map(toEvent);
    }
    return [];
  }

  async markDispatched(ids: readonly string[], holder: string): Promise<number> {
    if (ids.length === 0) return 0;
    const { modifiedCount } = await this.events.updateMany(
      { _id: { $in: [...ids] }, dispatched: false, leaseHolder: holder },
      { $set: { dispatched: true, leaseHolder: null, leaseTake: null, leaseUntil: null } },
    );
    return modifiedCount;
  }
}
