import type { Folder } from '../../domain/index.js';
import type { FolderRef } from './file-repository.js';
import type { NameKey } from './page-keys.js';

export const FolderRepository = Symbol('FolderRepository');

export interface FolderPatch {
  name?: string;
  parentId?: string | null;
  updatedAt: Date;
  /** Applies the patch only while the folder still sits directly in this place (a move taken back). */
  whileIn?: FolderRef;
}

/**
 * A folder being deleted is marked first and removed afterwards (see DeleteFolder). Between the two it is gone for
 * every read but `chain`, `listByOwner` and the marking methods, and nothing can be written to it.
 */
export interface FolderRepository {
  insert(folder: Folder): Promise<void>;
  /** Null when there is no such folder or it is being deleted. */
  findById(id: string): Promise<Folder | null>;
  /** The owner's live folders among `ids` (each once, in no particular order); unknown, foreign or marked ids are left out. */
  findMany(ownerId: string, ids: readonly string[]): Promise<Folder[]>;
  /** Changes a folder that exists and is not being deleted (and sits in `patch.whileIn`, if given); else null. */
  update(id: string, patch: FolderPatch): Promise<Folder | null>;
  /** Deletes the listed folders, marked or not; returns how many existed. */
  deleteMany(ids: readonly string[]): Promise<number>;
  /** Folders directly under any of the parents, ordered by name (case-insensitive) then id, at most `limit`. */
  listChildren(ownerId: string, parentIds: readonly FolderRef[], limit: number): Promise<Folder[]>;
  /** One keyset page of the folders directly under one parent (or the root), as FileRepository.pageInFolder. */
  pageChildren(ownerId: string, parentId: FolderRef, after: NameKey | null, limit: number): Promise<Folder[]>;
  /** Number of subfolders directly under each folder. */
  countChildren(ownerId: string, parentIds: readonly string[]): Promise<Map<string, number>>;
  /**
   * Folders below `rootId` (never the root itself, each once, none below a folder being deleted), at most `limit`;
   * order unspecified. Ends whatever is stored, a cycle of parents included.
   */
  listSubtree(ownerId: string, rootId: string, limit: number): Promise<Folder[]>;
  /**
   * The ids from the top-level ancestor down to `folderId` itself, following the stored parents whether marked or
   * not; empty when the folder does not exist. The walk stops at a missing parent, at a folder it has passed already
   * (a stored cycle) and after MAX_STORED_DEPTH folders.
   */
  chain(folderId: string): Promise<string[]>;
  /** Case-insensitive substring match on names, as FileRepository.search, scoped by parent folder. */
  search(ownerId: string, query: string, parentIds: readonly FolderRef[] | null, limit: number): Promise<Folder[]>;
  /** Every stored folder of the owner, marked ones included (for cascades and reconciling). */
  listByOwner(ownerId: string): Promise<Folder[]>;
  /**
   * Claims folders marked as being deleted for one removal, as FileRepository.claim does files; returns the ids
   * `claim` holds among `ids` now.
   */
  claimDeleting(ids: readonly string[], claim: string): Promise<string[]>;
  /** The ids of the folders `claim` holds. */
  claimedBy(claim: string): Promise<string[]>;
  /** Deletes the folders `claim` holds; returns how many went. */
  deleteClaimed(claim: string): Promise<number>;
  /** Marks the owner's folder as being deleted. True when it is marked now (by this call or before). */
  markDeleting(ownerId: string, id: string): Promise<boolean>;
  /**
   * Marks every folder directly under the parents as being deleted, each in one atomic step that sees where the
   * folder sits at that moment, and returns the ids of all marked folders directly under them.
   */
  markChildrenDeleting(ownerId: string, parentIds: readonly string[]): Promise<string[]>;
  /**
   * Takes the owner's move lease for `holder` until `until`, in one conditional write: only when nobody holds it or
   * its holder's time ran out by `now`. True when `holder` now holds it.
   */
  acquireMoveLease(ownerId: string, holder: string, until: Date, now: Date): Promise<boolean>;
  /** Gives the lease back, only if `holder` still holds it. */
  releaseMoveLease(ownerId: string, holder: string): Promise<void>;
}
