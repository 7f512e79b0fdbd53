import type { Share, ShareType } from '../../domain/index.js';

export const ShareRepository = Symbol('ShareRepository');

export interface ShareRepository {
  /** False when the item already has a share (one share per item); nothing is written then. */
  insert(share: Share): Promise<boolean>;
  findById(id: string): Promise<Share | null>;
  findByItem(type: ShareType, itemId: string): Promise<Share | null>;
  /** itemId → share id for the items of that type that are shared. */
  idsForItems(type: ShareType, itemIds: readonly string[]): Promise<Map<string, string>>;
  /** Ordered by createdAt then id. */
  listByOwner(ownerId: string): Promise<Share[]>;
  /** Atomically adds one view; returns the share after the change. */
  incrementViews(id: string): Promise<Share | null>;
  setPassword(id: string, passwordHash: string | null): Promise<Share | null>;
  delete(id: string): Promise<Share | null>;
  /** Deletes the shares of these items; returns the deleted ones. */
  deleteByItems(type: ShareType, itemIds: readonly string[]): Promise<Share[]>;
}
