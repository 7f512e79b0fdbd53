import { inject, injectable } from 'inversify';
import type { Collection, Db, Filter } from 'mongodb';
import { MAX_STORED_DEPTH, type Folder } from '../../domain/index.js';
import type { FolderPatch, FolderRef, FolderRepository, NameKey } from '../../application/ports/index.js';
import { isDuplicateKey } from './duplicate-key.js';
import { toFolder, toFolderDoc, type FolderDoc } from './folder-mapper.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';
import { afterName, BY_NAME, countByPlace, lowerName, namedFilter } from './named-query.js';

/** Folders not being deleted. A document written before the flag existed has no `deleting` field, and is live. */
const LIVE = { deleting: { $ne: true } } as const;

/** One owner's move lease: `_id` is the owner's id. */
interface LeaseDoc {
  _id: string;
  holder: string;
  until: Date;
}

/**
 * Each folder stores only its parent, so a move is one single-document write and no other document ever has to
 * follow it: no reader can see a subtree half moved, and no create racing a move can be left with a stale path.
 * Chains and subtrees are walked level by level (at most MAX_STORED_DEPTH queries, each on an index).
 */
@injectable()
export class MongoFolderRepository implements FolderRepository {
  private readonly folders: Collection<FolderDoc>;
  private readonly leases: Collection<LeaseDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.folders = db.collection<FolderDoc>(COLLECTIONS.folders);
    this.leases = db.collection<LeaseDoc>(COLLECTIONS.folderLeases);
  }

  async insert(folder: Folder): Promise<void> {
    await this.folders.insertOne(toFolderDoc(folder));
  }

  async findById(id: string): Promise<Folder | null> {
    const doc = await this.folders.findOne({ _id: id, ...LIVE });
    return doc ? toFolder(doc) : null;
  }

  async findMany(ownerId: string, ids: readonly string[]): Promise<Folder[]> {
    if (ids.length === 0) return [];
    return (await this.folders.find({ _id: { $in: [...new Set(ids)] }, ownerId, ...LIVE }).toArray()).map(toFolder);
  }

  async update(id: string, patch: FolderPatch): Promise<Folder | null> {
    const set: Partial<FolderDoc> = { updatedAt: new Date(patch.updatedAt) };
    if (patch.name !== undefined) {
      set.name = patch.name;
      set.nameLower = lowerName(patch.name);
    }
    if (patch.parentId !== undefined) set.parentId = patch.parentId;
    const filter: Filter<FolderDoc> = { _id: id, ...LIVE };
    if (patch.whileIn !== undefined) filter.parentId = patch.whileIn;
    const doc = await this.folders.findOneAndUpdate(filter, { $set: set }, { returnDocument: 'after' });
    return doc ? toFolder(doc) : null;
  }

  async deleteMany(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    return (await this.folders.deleteMany({ _id: { $in: [...new Set(ids)] } })).deletedCount;
  }

  async claimDeleting(ids: readonly string[], claim: string): Promise<string[]> {
    if (ids.length === 0) return [];
    const among = { _id: { $in: [...new Set(ids)] }, deleting: true as const };
    await this.folders.updateMany({ ...among, claim: { $exists: false } }, { $set: { claim } });
    return (await this.folders.find({ ...among, claim }, { projection: { _id: 1 } }).toArray()).map((doc) => doc._id);
  }

  async claimedBy(claim: string): Promise<string[]> {
    const docs = await this.folders.find({ claim, deleting: true }, { projection: { _id: 1 } }).toArray();
    return docs.map((doc) => doc._id);
  }

  async deleteClaimed(claim: string): Promise<number> {
    return (await this.folders.deleteMany({ claim })).deletedCount;
  }

  async listChildren(ownerId: string, parentIds: readonly FolderRef[], limit: number): Promise<Folder[]> {
    return this.search(ownerId, '', parentIds, limit);
  }

  /** Served by the owner_parent_name index, as MongoFileRepository.pageInFolder. */
  async pageChildren(ownerId: string, parentId: FolderRef, after: NameKey | null, limit: number): Promise<Folder[]> {
    // limit(0) would mean "no limit" to MongoDB.
    if (!(limit > 0)) return [];
    const filter = { ownerId, parentId, ...afterName(after), ...LIVE } as Filter<FolderDoc>;
    return (await this.folders.find(filter).sort(BY_NAME).limit(limit).toArray()).map(toFolder);
  }

  async countChildren(ownerId: string, parentIds: readonly string[]): Promise<Map<string, number>> {
    return countByPlace(
      (pipeline) => this.folders.aggregate<{ _id: string; n: number }>(pipeline).toArray(),
      ownerId,
      'parentId',
      parentIds,
      LIVE,
    );
  }

  /** Level by level on the (owner, parent) index: one query per level, each asking only for what is still missing. */
  async listSubtree(ownerId: string, rootId: string, limit: number): Promise<Folder[]> {
    const found: Folder[] = [];
    const seen = new Set([rootId]);
    let level = [rootId];
    while (level.length > 0 && found.length < limit) {
      const docs = await this.folders
        .find({ ownerId, parentId: { $in: level }, ...LIVE })
        .limit(limit - found.length)
        .toArray();
      level = [];
      for (const doc of docs) {
        if (seen.has(doc._id)) continue;
        seen.add(doc._id);
        level.push(doc._id);
        found.push(toFolder(doc));
      }
    }
    return found;
  }

  async chain(folderId: string): Promise<string[]> {
    const ids: string[] = [];
    const seen = new Set<string>();
    let next: string | null = folderId;
    while (next !== null && !seen.has(next) && ids.length < MAX_STORED_DEPTH) {
      const doc: Pick<FolderDoc, '_id' | 'parentId'> | null = await this.folders.findOne(
        { _id: next },
        { projection: { parentId: 1 } },
      );
      if (!doc) break;
      seen.add(doc._id);
      ids.push(doc._id);
      next = doc.parentId ?? null;
    }
    return ids.reverse();
  }

  async search(
    ownerId: string,
    query: string,
    parentIds: readonly FolderRef[] | null,
    limit: number,
  ): Promise<Folder[]> {
    // limit(0) would mean "no limit" to MongoDB.
    if (!(limit > 0) || parentIds?.length === 0) return [];
    const filter = { ...namedFilter<FolderDoc>(ownerId, 'parentId', parentIds, query), ...LIVE };
    return (await this.folders.find(filter).sort(BY_NAME).limit(limit).toArray()).map(toFolder);
  }

  async listByOwner(ownerId: string): Promise<Folder[]> {
    return (await this.folders.find({ ownerId }).toArray()).map(toFolder);
  }

  async markDeleting(ownerId: string, id: string): Promise<boolean> {
    return (await this.folders.updateOne({ _id: id, ownerId }, { $set: { deleting: true } })).matchedCount === 1;
  }

  async markChildrenDeleting(ownerId: string, parentIds: readonly string[]): Promise<string[]> {
    if (parentIds.length === 0) return [];
    const under = { ownerId, parentId: { $in: [...new Set(parentIds)] } };
    // Each document is matched and marked atomically, so a folder moved away before its turn is left alone, and
    // one moved in before it is marked with the rest.
    await this.folders.updateMany({ ...under, ...LIVE }, { $set: { deleting: true } });
    const marked = await this.folders.find({ ...under, deleting: true }, { projection: { _id: 1 } }).toArray();
    return marked.map((doc) => doc._id);
  }

  /**
   * The filter matches only a lease whose time ran out; when another holder's lease is still running nothing
   * matches, the upsert tries to insert a second document with the owner's id, and the unique `_id` refuses it.
   */
  async acquireMoveLease(ownerId: string, holder: string, until: Date, now: Date): Promise<boolean> {
    try {
      await this.leases.updateOne(
        { _id: ownerId, until: { $lte: now } },
        { $set: { holder, until } },
        { upsert: true },
      );
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  async releaseMoveLease(ownerId: string, holder: string): Promise<void> {
    await this.leases.deleteOne({ _id: ownerId, holder });
  }
}
