import type { Paste } from '../../domain/index.js';

export const PasteRepository = Symbol('PasteRepository');

export interface PastePatch {
  name?: string;
  type?: string;
  content?: string;
  size?: number;
  updatedAt: Date;
}

export interface PasteRepository {
  insert(paste: Paste): Promise<void>;
  findById(id: string): Promise<Paste | null>;
  /** Ordered by createdAt then id. */
  listByOwner(ownerId: string): Promise<Paste[]>;
  update(id: string, patch: PastePatch): Promise<Paste | null>;
  delete(id: string): Promise<Paste | null>;
}
