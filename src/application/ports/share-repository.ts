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

/**
 * Every read and write below skips a claimed share (see `claimByItems`), as if it were gone: only the removal that
 * claimed it sees it (`claimedBy`) and deletes it (`deleteClaimed`). A claimed share still holds its item's place
 * (one share per item), so a second share of an item whose removal is under way is refused.
 */
export interface ShareRepository {
  /** False when the item already has a share (one share per item); nothing is written then. */
  insert(share: Share): Promise<boolean>;
  findById(id: string): Promise<Share | null>;
  /** The owner of the share, claimed or not; null when there is none (a create's recovery: a claimed share exists). */
  ownerOf(id: string): Promise<string | null>;
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
  /** Deletes an unclaimed share; null when it is gone or claimed (a create taking its share back). */
  delete(id: string): Promise<Share | null>;
  /**
   * Claims the shares of these items for one deletion (`claim`, the id of its hold): every share of them that no one
   * claimed yet becomes `claim`'s, in one atomic update, so two deletions never both count a share. Returns every
   * share `claim` holds among these items now, those it claimed earlier included, so it can run again.
   */
  claimByItems(type: ShareType, itemIds: readonly string[], claim: string): Promise<Share[]>;
  /** claimByItems for one share by its id: the share when `claim` holds it now, null when it is gone or another's. */
  claim(id: string, claim: string): Promise<Share | null>;
  /** The shares `claim` holds (a deletion cut short finds what it claimed). */
  claimedBy(claim: string): Promise<Share[]>;
  /** Deletes the shares `claim` holds; returns those this call deleted. */
  deleteClaimed(claim: string): Promise<Share[]>;
  /** Deletes every share of the owner, claimed or not (an account's removal); returns their ids. */
  deleteByOwner(ownerId: string): Promise<string[]>;
}
