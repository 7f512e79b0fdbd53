import { injectable } from 'inversify';
import type { Collection } from '../../domain/index.js';
import type { AddFileResult, CollectionRepository, CreatedKey } from '../../application/ports/index.js';
import { clone } from './clone.js';
import { Groups } from './groups.js';
import { compareCreated, pageCreated } from './order.js';

@injectable()
export class MemoryCollectionRepository implements CollectionRepository {
  private readonly rows = new Map<string, Collection>();
  private readonly byOwner = new Groups<string, Collection>();

  async insert(collection: Collection): Promise<void> {
    if (this.rows.has(collection.id)) throw new Error(`A collection with id ${collection.id} already exists`);
    const stored = clone(collection);
    this.rows.set(stored.id, stored);
    this.byOwner.set(stored.ownerId, stored.id, stored);
  }

  async findById(id: string): Promise<Collection | null> {
    const collection = this.rows.get(id);
    return collection ? clone(collection) : null;
  }

  async listByOwner(ownerId: string): Promise<Collection[]> {
    return this.ofOwner(ownerId).sort(compareCreated).map(clone);
  }

  async pageByOwner(ownerId: string, after: CreatedKey | null, limit: number): Promise<Collection[]> {
    return pageCreated(this.byOwner.get(ownerId).values(), after, limit).map(clone);
  }

  async rename(id: string, name: string, updatedAt: Date): Promise<Collection | null> {
    const collection = this.rows.get(id);
    if (!collection) return null;
    collection.name = name;
    collection.updatedAt = new Date(updatedAt);
    return clone(collection);
  }

  async delete(id: string): Promise<Collection | null> {
    const collection = this.rows.get(id);
    if (!collection) return null;
    this.rows.delete(id);
    this.byOwner.delete(collection.ownerId, id);
    return collection;
  }

  /** Check and change happen in one synchronous step, so concurrent adds never overfill a collection. */
  async addFile(id: string, fileId: string, max: number, updatedAt: Date): Promise<AddFileResult> {
    const collection = this.rows.get(id);
    if (!collection) return 'missing';
    if (collection.fileIds.includes(fileId)) return 'present';
    if (collection.fileIds.length >= max) return 'full';
    collection.fileIds.push(fileId);
    collection.updatedAt = new Date(updatedAt);
    return 'added';
  }

  /** updatedAt moves only when a file actually left the collection. */
  async removeFile(id: string, fileId: string, updatedAt: Date): Promise<boolean> {
    const collection = this.rows.get(id);
    if (!collection) return false;
    const at = collection.fileIds.indexOf(fileId);
    if (at >= 0) {
      collection.fileIds.splice(at, 1);
      collection.updatedAt = new Date(updatedAt);
    }
    return true;
  }

  async removeFilesEverywhere(ownerId: string, fileIds: readonly string[]): Promise<void> {
    const gone = new Set(fileIds);
    for (const collection of this.ofOwner(ownerId)) {
      if (collection.fileIds.some((fileId) => gone.has(fileId))) {
        collection.fileIds = collection.fileIds.filter((fileId) => !gone.has(fileId));
      }
    }
  }

  private ofOwner(ownerId: string): Collection[] {
    return [...this.byOwner.get(ownerId).values()];
  }
}
