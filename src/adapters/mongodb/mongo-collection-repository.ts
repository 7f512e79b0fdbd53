import { inject, injectable } from 'inversify';
import type { Collection as MongoCollection, Db, Filter } from 'mongodb';
import type { Collection } from '../../domain/index.js';
import type { AddFileResult, CollectionRepository, CreatedKey } from '../../application/ports/index.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';
import { afterCreated, BY_CREATED } from './named-query.js';

interface CollectionDoc {
  _id: string;
  ownerId: string;
  name: string;
  fileIds: string[];
  createdAt: Date;
  updatedAt: Date;
}

function toDoc(collection: Collection): CollectionDoc {
  return {
    _id: collection.id,
    ownerId: collection.ownerId,
    name: collection.name,
    fileIds: [...collection.fileIds],
    createdAt: new Date(collection.createdAt),
    updatedAt: new Date(collection.updatedAt),
  };
}

function toCollection(doc: CollectionDoc): Collection {
  return {
    id: doc._id,
    ownerId: doc.ownerId,
    name: doc.name,
    fileIds: [...(doc.fileIds ?? [])],
    createdAt: new Date(doc.createdAt),
    updatedAt: new Date(doc.updatedAt),
  };
}

@injectable()
export class MongoCollectionRepository implements CollectionRepository {
  private readonly collections: MongoCollection<CollectionDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.collections = db.collection<CollectionDoc>(COLLECTIONS.collections);
  }

  async insert(collection: Collection): Promise<void> {
    await this.collections.insertOne(toDoc(collection));
  }

  async findById(id: string): Promise<Collection | null> {
    const doc = await this.collections.findOne({ _id: id });
    return doc ? toCollection(doc) : null;
  }

  async listByOwner(ownerId: string): Promise<Collection[]> {
    return (await this.collections.find({ ownerId }).sort(BY_CREATED).toArray()).map(toCollection);
  }

  /** Served by the owner_created index. */
  async pageByOwner(ownerId: string, after: CreatedKey | null, limit: number): Promise<Collection[]> {
    // limit(0) would mean "no limit" to MongoDB.
    if (!(limit > 0)) return [];
    const filter = { ownerId, ...afterCreated(after) } as Filter<CollectionDoc>;
    return (await this.collections.find(filter).sort(BY_CREATED).limit(limit).toArray()).map(toCollection);
  }

  async rename(id: string, name: string, updatedAt: Date): Promise<Collection | null> {
    const doc = await this.collections.findOneAndUpdate(
      { _id: id },
      { $set: { name, updatedAt: new Date(updatedAt) } },
      { returnDocument: 'after' },
    );
    return doc ? toCollection(doc) : null;
  }

  async delete(id: string): Promise<Collection | null> {
    const doc = await this.collections.findOneAndDelete({ _id: id });
    return doc ? toCollection(doc) : null;
  }

  /**
   * One conditional push: it matches only while the file is absent and there is no element at index max-1, i.e.
   * fewer than `max` files. When it did not match, two reads tell why.
   */
  async addFile(id: string, fileId: string, max: number, updatedAt: Date): Promise<AddFileResult> {
    if (max > 0) {
      const { matchedCount } = await this.collections.updateOne(
        { _id: id, fileIds: { $ne: fileId }, [`fileIds.${max - 1}`]: { $exists: false } },
        { $push: { fileIds: fileId }, $set: { updatedAt: new Date(updatedAt) } },
      );
      if (matchedCount === 1) return 'added';
    }
    if (await this.collections.findOne({ _id: id, fileIds: fileId }, { projection: { _id: 1 } })) return 'present';
    return (await this.exists(id)) ? 'full' : 'missing';
  }

  /** updatedAt moves only when a file actually left the collection. */
  async removeFile(id: string, fileId: string, updatedAt: Date): Promise<boolean> {
    const { matchedCount } = await this.collections.updateOne(
      { _id: id, fileIds: fileId },
      { $pull: { fileIds: fileId }, $set: { updatedAt: new Date(updatedAt) } },
    );
    return matchedCount === 1 || (await this.exists(id));
  }

  async removeFilesEverywhere(ownerId: string, fileIds: readonly string[]): Promise<void> {
    if (fileIds.length === 0) return;
    const gone = [...new Set(fileIds)];
    await this.collections.updateMany({ ownerId, fileIds: { $in: gone } }, { $pull: { fileIds: { $in: gone } } });
  }

  private async exists(id: string): Promise<boolean> {
    return (await this.collections.findOne({ _id: id }, { projection: { _id: 1 } })) !== null;
  }
}
