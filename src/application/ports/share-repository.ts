import type { Share, ShareCounter, ShareLimits, ShareType } from '../../domain/index.js';

export const ShareRepository = Symbol('ShareRepository');

export interface OpenUse {
  counter: ShareCounter | readonly ShareCounter[];
  now: Date;
  readerId: string | null;
  types: readonly ShareType[];
}

/** What an owner may change on a share; absent fields stay as they are. */
export type ShareChanges = Partial<Pick<Share, 'passwordHash'> & ShareLimits>;

export interface ShareRepository {
  /** False when the item already has a share (one share per item); nothing is written then. */
  insert(share: Share): Promise<boolean>;
  findById(id: string): Promise<Share | null>;
  findByItem(type: ShareType, itemId: string): Promise<Share | null>;
  /** itemId → share id for the items of that type that are shared. */
  idsForItems(type: ShareType, itemIds: readonly string[]): Promise<Map<string, string>>;
  /** Ordered by createdAt then id. */
  listByOwner(ownerId: string): Promise<Share[]>;
  /**
   * Adds one to `counter` only if the share is active at `now` (shareState), in one atomic check-and-set, so the
   * maxima hold whatever races it, across instances. Returns the share after the change, or null when it is missing
   * or not active (nothing changed).
   */
  countUse(id: string, counter: ShareCounter | readonly ShareCounter[], now: Date): Promise<Share | null>;
  /**
   * countUse for a reader who needs nothing more checked: counts only while the share is active at `use.now`, has
   * no password, is of one of `use.types` and is not owned by `use.readerId` (null: an anonymous reader), all in
   * the same one atomic step. Null when any of that does not hold (nothing changed): the caller takes the full path.
   */
  countOpenUse(id: string, use: OpenUse): Promise<Share | null>;
  /** Takes back one use of each counter counted by countUse, in one atomic step, never below zero. */
  uncountUse(id: string, counter: ShareCounter | readonly ShareCounter[]): Promise<void>;
  update(id: string, changes: ShareChanges): Promise<Share | null>;
  delete(id: string): Promise<Share | null>;
  /** Deletes the shares of these items; returns the deleted ones. */
  deleteByItems(type: ShareType, itemIds: readonly string[]): Promise<Share[]>;
}
