import type { Folder } from '../../domain/index.js';
import type { FolderRef } from './file-repository.js';

export const FolderRepository = Symbol('FolderRepository');

export interface FolderPatch {
  name?: string;
  parentId?: string | null;
  updatedAt: Date;
}

export interface FolderRepository {
  insert(folder: Folder): Promise<void>;
  findById(id: string): Promise<Folder | null>;
  update(id: string, patch: FolderPatch): Promise<Folder | null>;
  /** Deletes the listed folders; returns how many existed. */
  deleteMany(ids: readonly string[]): Promise<number>;
  /** Folders directly under any of the parents, ordered by name (case-insensitive) then id, at most `limit`. */
  listChildren(ownerId: string, parentIds: readonly FolderRef[], limit: number): Promise<Folder[]>;
  /** Number of subfolders directly under each folder. */
  countChildren(ownerId: string, parentIds: readonly string[]): Promise<Map<string, number>>;
  /** Every folder below `rootId` (not the root itself), at most `limit`; order unspecified. */
  listSubtree(ownerId: string, rootId: string, limit: number): Promise<Folder[]>;
  /** The ids from the top-level ancestor down to `folderId` itself; empty when the folder does not exist. */
  chain(folderId: string): Promise<string[]>;
  /** Case-insensitive substring match on names, as FileRepository.search, scoped by parent folder. */
  search(ownerId: string, query: string, parentIds: readonly FolderRef[] | null, limit: number): Promise<Folder[]>;
  listByOwner(ownerId: string): Promise<Folder[]>;
}
