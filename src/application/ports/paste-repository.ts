import type { Paste } from '../../domain/index.js';
import type { CreatedKey } from './page-keys.js';

export const PasteRepository = Symbol('PasteRepository');

export interface PastePatch {
  name?: string;
  type?: string;
  content?: string;
  size?: number;
  updatedAt: Date;
  /** Applies the patch only while the stored size is still this one (compare-and-set for storage accounting). */
  ifSize?: number;
  /**
   * The hold of the rewrite writing this patch, added to the paste's `rewrites` (the last REWRITES_KEPT) in the same
   * write: whether a rewrite cut short landed is then known from the paste.
   */
  rewrite?: string;
}

/** How many rewrites' holds a paste keeps (Paste.rewrites), newest last. */
export const REWRITES_KEPT = 16;

export interface PasteRepository {
  insert(paste: Paste): Promise<void>;
  findById(id: string): Promise<Paste | null>;
  /** Ordered by createdAt then id. */
  listByOwner(ownerId: string): Promise<Paste[]>;
  /** One keyset page of the owner's pastes: by createdAt then id, strictly after `after` (null: the start). */
  pageByOwner(ownerId: string, after: CreatedKey | null, limit: number): Promise<Paste[]>;
  /** Null when the paste is missing, or when `ifSize` is given and the stored size differs. */
  update(id: string, patch: PastePatch): Promise<Paste | null>;
  delete(id: string): Promise<Paste | null>;
}
