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
}

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
