import { inject, injectable } from 'inversify';
import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
import type { Folder } from '../../domain/index.js';
import type { FolderPatch, FolderRef, FolderRepository } from '../../application/ports/index.js';
import { toFolder, toFolderDoc, type FolderDoc } from './folder-mapper.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';
import { BY_NAME, countByPlace, lowerName, namedFilter } from './named-query.js';

/**
 * Folders carry their `ancestors`, so `chain` and `listSubtree` are one query each and a move is a fixed number of
 * writes whatever the size of the subtree. Without transactions a move is not atomic: for a moment a reader may see
 * descendants still under the old ancestors, or under neither old nor new ones, never under folders they never had.
 */
@injectable()
export class MongoFolderRepository implements FolderRepository {
  private readonly folders: Collection<FolderDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.folders = db.collection<FolderDoc>(COLLECTIONS.folders);
  }

  async insert(folder: Folder): Promise<void> {
    await this.folders.insertOne(toFolderDoc(folder, await this.ancestorsUnder(folder.parentId)));
  }

  async findById(id: string): Promise<Folder | null> {
    const doc = await this.folders.findOne({ _id: id });
    return doc ? toFolder(doc) : null;
  }

  async update(id: string, patch: FolderPatch): Promise<Folder | null> {
    const set: Partial<FolderDoc> = { updatedAt: new Date(patch.updatedAt) };
    if (patch.name !== undefined) {
      set.name = patch.name;
      set.nameLower = lowerName(patch.name);
    }
    if (patch.parentId === undefined) {
      const doc = await this.folders.findOneAndUpdate({ _id: id }, { $set: set }, { returnDocument: 'after' });
      return doc ? toFolder(doc) : null;
    }
    set.parentId = patch.parentId;
    set.ancestors = await this.ancestorsUnder(patch.parentId);
    const before = await this.folders.findOneAndUpdate({ _id: id }, { $set: set }, { returnDocument: 'before' });
    if (!before) return null;
    await this.rebaseSubtree(before, set.ancestors);
    return toFolder({ ...before, ...set });
  }

  async deleteMany(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    return (await this.folders.deleteMany({ _id: { $in: [...new Set(ids)] } })).deletedCount;
  }

  async listChildren(ownerId: string, parentIds: readonly FolderRef[], limit: number): Promise<Folder[]> {
    return this.search(ownerId, '', parentIds, limit);
  }

  async countChildren(ownerId: string, parentIds: readonly string[]): Promise<Map<string, number>> {
    return countByPlace(
      (pipeline) => this.folders.aggregate<{ _id: string; n: number }>(pipeline).toArray(),
      ownerId,
      'parentId',
      parentIds,
    );
  }

  async listSubtree(ownerId: string, rootId: string, limit: number): Promise<Folder[]> {
    if (!(limit > 0)) return [];
    return (await this.folders.find({ ownerId, ancestors: rootId }).limit(limit).toArray()).map(toFolder);
  }

  async chain(folderId: string): Promise<string[]> {
    const doc = await this.folders.findOne({ _id: folderId }, { projection: { ancestors: 1 } });
    return doc ? [...doc.ancestors, doc._id] : [];
  }

  async search(
    ownerId: string,
    query: string,
    parentIds: readonly FolderRef[] | null,
    limit: number,
  ): Promise<Folder[]> {
    // limit(0) would mean "no limit" to MongoDB.
    if (!(limit > 0) || parentIds?.length === 0) return [];
    const filter = namedFilter<FolderDoc>(ownerId, 'parentId', parentIds, query);
    return (await this.folders.find(filter).sort(BY_NAME).limit(limit).toArray()).map(toFolder);
  }

  async listByOwner(ownerId: string): Promise<Folder[]> {
    return (await this.folders.find({ ownerId }).toArray()).map(toFolder);
  }

  /** The ancestors of a folder placed under `parentId`; a parent that does not exist ends the chain, as in `chain`. */
  private async ancestorsUnder(parentId: string | null): Promise<string[]> {
    if (parentId === null) return [];
    const parent = await this.folders.findOne({ _id: parentId }, { projection: { ancestors: 1 } });
    return parent ? [...parent.ancestors, parent._id] : [];
  }

  /**
   * Every descendant's ancestors start with the moved folder's old ancestors: swap that prefix for the new one.
   * Ids are unique, so pulling the old prefix takes exactly those entries; two updates because one update may not
   * both pull from and push to the same array.
   */
  private async rebaseSubtree(moved: FolderDoc, ancestors: readonly string[]): Promise<void> {
    const old = moved.ancestors;
    if (old.length === ancestors.length && old.every((id, i) => id === ancestors[i])) return;
    const below = { ownerId: moved.ownerId, ancestors: moved._id };
    const ops: AnyBulkWriteOperation<FolderDoc>[] = [];
    if (old.length > 0) ops.push({ updateMany: { filter: below, update: { $pullAll: { ancestors: old } } } });
    if (ancestors.length > 0) {
      ops.push({
        updateMany: { filter: below, update: { $push: { ancestors: { $each: [...ancestors], $position: 0 } } } },
      });
    }
    await this.folders.bulkWrite(ops, { ordered: true });
  }
}
