import type { Collection } from '../../domain/index.js';
import type { CreatedKey } from './page-keys.js';

export const CollectionRepository = Symbol('CollectionRepository');

export type AddFileResult = 'added' | 'present' | 'full' | 'missing';

export interface CollectionRepository {
  insert(collection: Collection): Promise<void>;
  findById(id: string): Promise<Collection | null>;
  /** Ordered by createdAt then id. */
  listByOwner(ownerId: string): Promise<Collection[]>;
  /** One keyset page of the owner's collections: by createdAt then id, strictly after `after` (null: the start). */
  pageByOwner(ownerId: string, after: CreatedKey | null, limit: number): Promise<Collection[]>;
  rename(id: string, name: string, updatedAt: Date): Promise<Collection | null>;
  delete(id: string): Promise<Collection | null>;
  /** Atomic and idempotent: adds the file unless present, or the collection already holds `max` files. */
  addFile(id: string, fileId: string, max: number, updatedAt: Date): Promise<AddFileResult>;
  /** False when the collection does not exist; removing an absent file is not an error. */
  removeFile(id: string, fileId: string, updatedAt: Date): Promise<boolean>;
  /** Takes the files out of every collection of the owner that holds them. */
  removeFilesEverywhere(ownerId: string, fileIds: readonly string[]): Promise<void>;
}
