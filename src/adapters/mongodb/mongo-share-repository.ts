import { inject, injectable } from 'inversify';
import type { Collection, Db, Filter } from 'mongodb';
import type { Share, ShareCounter, ShareType } from '../../domain/index.js';
import type { ShareChanges, ShareRepository } from '../../application/ports/index.js';
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
}

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
    const doc = await this.shares.findOne({ _id: id });
    return doc ? toShare(doc) : null;
  }

  async findByItem(type: ShareType, itemId: string): Promise<Share | null> {
    const doc = await this.shares.findOne({ type, itemId });
    return doc ? toShare(doc) : null;
  }

  async idsForItems(type: ShareType, itemIds: readonly string[]): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    if (itemIds.length === 0) return ids;
    const docs = await this.shares
      .find({ type, itemId: { $in: [...new Set(itemIds)] } }, { projection: { itemId: 1 } })
      .toArray();
    for (const doc of docs) ids.set(doc.itemId, doc._id);
    return ids;
  }

  async listByOwner(ownerId: string): Promise<Share[]> {
    return (await this.shares.find({ ownerId }).sort(BY_CREATED).toArray()).map(toShare);
  }

  /** One findOneAndUpdate: the check and the increment cannot be split by any other instance's write. */
  async countUse(id: string, counter: ShareCounter | readonly ShareCounter[], now: Date): Promise<Share | null> {
    const counters: readonly ShareCounter[] = typeof counter === 'string' ? [counter] : counter;
    const doc = await this.shares.findOneAndUpdate(
      { _id: id, ...activeAt(now) },
      { $inc: Object.fromEntries(counters.map((name) => [name, 1])) },
      { returnDocument: 'after' },
    );
    return doc ? toShare(doc) : null;
  }

  async update(id: string, changes: ShareChanges): Promise<Share | null> {
    const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    const doc =
      Object.keys(set).length === 0
        ? await this.shares.findOne({ _id: id })
        : await this.shares.findOneAndUpdate({ _id: id }, { $set: set }, { returnDocument: 'after' });
    return doc ? toShare(doc) : null;
  }

  async delete(id: string): Promise<Share | null> {
    const doc = await this.shares.findOneAndDelete({ _id: id });
    return doc ? toShare(doc) : null;
  }

  /**
   * Each share is taken with its own findOneAndDelete, so a share deleted concurrently elsewhere is returned by
   * exactly one caller and its count is released exactly once.
   */
  async deleteByItems(type: ShareType, itemIds: readonly string[]): Promise<Share[]> {
    const found = await this.idsForItems(type, itemIds);
    const deleted = await Promise.all([...found.values()].map((id) => this.delete(id)));
    return deleted.filter((share): share is Share => share !== null);
  }
}
