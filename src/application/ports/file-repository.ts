import type { StoredFile } from '../../domain/index.js';
import type { NameKey } from './page-keys.js';

export const FileRepository = Symbol('FileRepository');

export interface FilePatch {
  name?: string;
  folderId?: string | null;
  updatedAt: Date;
  /** Applies the patch only while the file still sits directly in this place (a move taken back). */
  whileIn?: FolderRef;
}

/** The new bytes of a file whose content is replaced. */
export interface ReplacedContent {
  blobKey: string;
  size: number;
  mime: string;
  charset: 'utf-8' | null;
  updatedAt: Date;
}

/** `null` in a folder list means the owner's root. */
export type FolderRef = string | null;

export interface FileRepository {
  insert(file: StoredFile): Promise<void>;
  findById(id: string): Promise<StoredFile | null>;
  /** The files among `ids` that exist, in no particular order. */
  findByIds(ids: readonly string[]): Promise<StoredFile[]>;
  /** Null when there is no such file (or it no longer sits in `patch.whileIn`, if given). */
  update(id: string, patch: FilePatch): Promise<StoredFile | null>;
  /**
   * Points the file at other bytes, in one conditional update: only while it still points at `whileBlob` and no
   * removal claimed it. Its revision goes up by one. Null when that no longer holds (nothing changed then).
   */
  replaceContent(id: string, whileBlob: string, content: ReplacedContent): Promise<StoredFile | null>;
  /** Returns the deleted file, or null when it was already gone (so its counts are released exactly once). */
  delete(id: string): Promise<StoredFile | null>;
  /** Files directly in any of the folders, ordered by name (case-insensitive) then id, at most `limit`. */
  listInFolders(ownerId: string, folderIds: readonly FolderRef[], limit: number): Promise<StoredFile[]>;
  /**
   * One keyset page of the files directly in one folder (or the root): ordered by name (case-insensitive, as
   * `sortName`) then id, strictly after `after` (null: from the start), at most `limit`.
   */
  pageInFolder(ownerId: string, folderId: FolderRef, after: NameKey | null, limit: number): Promise<StoredFile[]>;
  /** Number of files directly in each folder; folders without files are absent or 0. */
  countInFolders(ownerId: string, folderIds: readonly string[]): Promise<Map<string, number>>;
  /**
   * Case-insensitive substring match on names, within the whole account or only in the listed folders,
   * ordered by name (case-insensitive) then id, at most `limit`.
   */
  search(ownerId: string, query: string, folderIds: readonly FolderRef[] | null, limit: number): Promise<StoredFile[]>;
  /** Every file of the owner (for cascades and reconciling). */
  listByOwner(ownerId: string): Promise<StoredFile[]>;
  /**
   * Claims files for one removal: each of `ids` that no removal claimed yet becomes `claim`'s, in one conditional
   * step per record, so two removals never both count a file. Returns the files `claim` holds among `ids` now. A
   * claimed file reads as any other until its removal deletes it.
   */
  claim(ids: readonly string[], claim: string): Promise<StoredFile[]>;
  /** Whether a removal claimed the file (a share made of it meanwhile takes itself back: its file is going). */
  isClaimed(id: string): Promise<boolean>;
  /** The files `claim` holds (a removal cut short finds what it was removing). */
  claimedBy(claim: string): Promise<StoredFile[]>;
  /** Deletes the files `claim` holds; returns how many went. */
  deleteClaimed(claim: string): Promise<number>;
  /** The keys among `blobKeys` that some file record points at (the sweep of orphan bytes asks in batches). */
  referencedBlobKeys(blobKeys: readonly string[]): Promise<Set<string>>;
}
