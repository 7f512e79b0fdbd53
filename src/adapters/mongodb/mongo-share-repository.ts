import { inject, injectable } from 'inversify';
import type { Collection, Db, Filter } from 'mongodb';
import type { Share, ShareCounter, ShareType } from '../../domain/index.js';
import type { OpenUse, ShareChanges, ShareRepository } from '../../application/ports/index.js';
import { isDuplicateKey } from './duplicate-key.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';
import { BY_CREATED } from './named-query.js';

interface ShareDoc {
  /** The public link id. */
  _id: string;
  ownerId: string;
  type: ShareType;
  /** Unique together with `type`: one share per item. */
  itemId: string;
  passwordHash: string | null;
  views: number;
  /** Absent on shares written before downloads were counted, as are the three limits below (read as 0 and null). */
  downloads?: number;
  expiresAt?: Date | null;
  maxViews?: number | null;
  maxDownloads?: number | null;
  createdAt: Date;
  /** Absent on shares written before the owner's name was kept. */
  ownerName?: string;
  /** The deletion that claimed the share (indexed, sparse): set once; a claimed share is gone for every other read. */
  claim?: string;
}

/** Shares no deletion claimed: every read and write but the claimer's adds this to its filter. */
const OPEN = { claim: { $exists: false } } as const;

function toDoc(share: Share): ShareDoc {
  return {
    _id: share.id,
    ownerId: share.ownerId,
    type: share.type,
    itemId: share.itemId,
    passwordHash: share.passwordHash,
    views: share.views,
    downloads: share.downloads,
    expiresAt: share.expiresAt && new Date(share.expiresAt),
    maxViews: share.maxViews,
    maxDownloads: share.maxDownloads,
    createdAt: new Date(share.createdAt),
    ...(share.ownerName === undefined ? {} : { ownerName: share.ownerName }),
  };
}

function toShare(doc: ShareDoc): Share {
  return {
    id: doc._id,
    ownerId: doc.ownerId,
    type: doc.type,
    itemId: doc.itemId,
    passwordHash: doc.passwordHash ?? null,
    views: doc.views ?? 0,
    downloads: doc.downloads ?? 0,
    expiresAt: doc.expiresAt ? new Date(doc.expiresAt) : null,
    maxViews: doc.maxViews ?? null,
    maxDownloads: doc.maxDownloads ?? null,
    createdAt: new Date(doc.createdAt),
    ...(doc.ownerName === undefined ? {} : { ownerName: doc.ownerName }),
  };
}

/**
 * The documents whose share is active at `now` (domain shareState), as a query: `null` matches an absent field too,
 * so shares written before these fields existed are active and unlimited. A missing `downloads` compares as 0.
 */
function activeAt(now: Date): Filter<ShareDoc> {
  const below = (counter: string, max: string) => ({ $expr: { $lt: [{ $ifNull: [counter, 0] }, max] } });
  return {
    $and: [
      { $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }] },
      { $or: [{ maxViews: null }, below('$views', '$maxViews')] },
      { $or: [{ maxDownloads: null }, below('$downloads', '$maxDownloads')] },
    ],
  };
}

@injectable()
export class MongoShareRepository implements ShareRepository {
  private readonly shares: Collection<ShareDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.shares = db.collection<ShareDoc>(COLLECTIONS.shares);
  }

  async insert(share: Share): Promise<boolean> {
    try {
      await this.shares.insertOne(toDoc(share));
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  async findById(id: string): Promise<Share | null> {
    const doc = await this.shares.findOne({ _id: id, ...OPEN });
    return doc ? toShare(doc) : null;
  }

  async ownerOf(id: string): Promise<string | null> {
    return (await this.shares.findOne({ _id: id }, { projection: { ownerId: 1 } }))?.ownerId ?? null;
  }

  async findByItem(type: ShareType, itemId: string): Promise<Share | null> {
    const doc = await this.shares.findOne({ type, itemId, ...OPEN });
    return doc ? toShare(doc) : null;
  }

  async idsForItems(type: ShareType, itemIds: readonly string[]): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    if (itemIds.length === 0) return ids;
    const docs = await this.shares
      .find({ type, itemId: { $in: [...new Set(itemIds)] }, ...OPEN }, { projection: { itemId: 1 } })
      .toArray();
    for (const doc of docs) ids.set(doc.itemId, doc._id);
    return ids;
  }

  async listByOwner(ownerId: string): Promise<Share[]> {
    return (await this.shares.find({ ownerId, ...OPEN }).sort(BY_CREATED).toArray()).map(toShare);
  }

  /** One findOneAndUpdate: the check and the increment cannot be split by any other instance's write. */
  async countUse(id: string, counter: ShareCounter | readonly ShareCounter[], now: Date): Promise<Share | null> {
    return this.countWhere({ _id: id, ...activeAt(now) }, counter, 1);
  }

  async countOpenUse(id: string, { counter, now, readerId, types }: OpenUse): Promise<Share | null> {
    // `passwordHash: null` matches an absent field too: such shares are open.
    const reader: Filter<ShareDoc> = readerId === null ? {} : { ownerId: { $ne: readerId } };
    const open = { _id: id, passwordHash: null, type: { $in: [...types] }, ...reader, ...activeAt(now) };
    return this.countWhere(open, counter, 1);
  }

  async uncountUse(id: string, counter: ShareCounter | readonly ShareCounter[]): Promise<void> {
    const counters = typeof counter === 'string' ? [counter] : counter;
    const enough = Object.fromEntries(counters.map((name) => [name, { $gte: 1 }]));
    await this.countWhere({ _id: id, ...enough } as Filter<ShareDoc>, counters, -1);
  }

  private async countWhere(
    filter: Filter<ShareDoc>,
    counter: ShareCounter | readonly ShareCounter[],
    step: 1 | -1,
  ): Promise<Share | null> {
    const counters: readonly ShareCounter[] = typeof counter === 'string' ? [counter] : counter;
    const doc = await this.shares.findOneAndUpdate(
      { ...filter, ...OPEN },
      { $inc: Object.fromEntries(counters.map((name) => [name, step])) },
      { returnDocument: 'after' },
    );
    return doc ? toShare(doc) : null;
  }

  async update(id: string, changes: ShareChanges): Promise<Share | null> {
    const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    const doc =
      Object.keys(set).length === 0
        ? await this.shares.findOne({ _id: id, ...OPEN })
        : await this.shares.findOneAndUpdate({ _id: id, ...OPEN }, { $set: set }, { returnDocument: 'after' });
    return doc ? toShare(doc) : null;
  }

  async delete(id: string): Promise<Share | null> {
    const doc = await this.shares.findOneAndDelete({ _id: id, ...OPEN });
    return doc ? toShare(doc) : null;
  }

  /** One updateMany over the unclaimed ones: each share is claimed atomically and only once. */
  async claimByItems(type: ShareType, itemIds: readonly string[], claim: string): Promise<Share[]> {
    if (itemIds.length === 0) return [];
    const among = { type, itemId: { $in: [...new Set(itemIds)] } };
    await this.shares.updateMany({ ...among, ...OPEN }, { $set: { claim } });
    return (await this.shares.find({ ...among, claim }).toArray()).map(toShare);
  }

  async claim(id: string, claim: string): Promise<Share | null> {
    await this.shares.updateOne({ _id: id, ...OPEN }, { $set: { claim } });
    const doc = await this.shares.findOne({ _id: id, claim });
    return doc ? toShare(doc) : null;
  }

  async claimedBy(claim: string): Promise<Share[]> {
    return (await this.shares.find({ claim }).toArray()).map(toShare);
  }

  /**
   * Each claimed share is taken with its own findOneAndDelete, so a share deleted by two runs of one deletion (the
   * sweep finishing one that still lives) is returned by exactly one.
   */
  async deleteClaimed(claim: string): Promise<Share[]> {
    const found = await this.shares.find({ claim }, { projection: { _id: 1 } }).toArray();
    const deleted = await Promise.all(found.map(({ _id }) => this.shares.findOneAndDelete({ _id, claim })));
    return deleted.filter((doc): doc is ShareDoc => doc !== null).map(toShare);
  }

  async deleteByOwner(ownerId: string): Promise<string[]> {
    const found = await this.shares.find({ ownerId }, { projection: { _id: 1 } }).toArray();
    if (found.length === 0) return [];
    await this.shares.deleteMany({ _id: { $in: found.map((doc) => doc._id) } });
    return found.map((doc) => doc._id);
  }
}
