import { forgetActivity } from '../activity/forget.js';
import type { Actor, LimitKind, Share } from '../../domain/index.js';
import type { HeldAmounts, Hold, Ports, RecordKind, WhileBy } from '../ports/index.js';
import { limitsOf, refusal } from './usage-limits.js';

type Amounts = Partial<Record<LimitKind, number>>;
export type HeldDeps = Pick<Ports, 'usage' | 'settings' | 'instance' | 'clock'>;
export type RecordDeps = Pick<
  Ports,
  'usage' | 'folders' | 'pastes' | 'shares' | 'collections' | 'tokens' | 'requests' | 'activityLog' | 'mailNotices'
>;

/** How one small record's create goes, between taking its counts and handing them to it. */
export interface HeldCreate<T> {
  /** Inserts the record; if it fails, the counts go back. */
  insert(): Promise<T>;
  /**
   * What is judged once the record stands (its parent or item deleted meanwhile, a share asked for with it): null when
   * it stays, else the error the create fails with once the record is taken back.
   */
  check?(made: T): Promise<Error | null>;
  /** Deletes the record; true when this call deleted it (a delete that got there first gives its counts back). */
  takeBack(made: T): Promise<boolean>;
}

/**
 * Creates one small record (folder, paste, share, collection, token) under a hold named by its id, naming this
 * instance: the very conditional update that takes the count (each limit is still one) writes the hold, so a kill
 * between the count and the record leaves the hold, and the sweep of gone instances settles it if the record exists
 * and gives it back if not. Once the record stands the hold is settled, its counts now the record's: three commands
 * where a create took two, the price of knowing a killed create from the database. `also`: a second count the record
 * takes (a paste's bytes), into the same hold.
 */
export async function createHeld<T>(
  p: HeldDeps,
  actor: Actor,
  kind: LimitKind,
  record: RecordKind,
  id: string,
  create: HeldCreate<T>,
  also?: { kind: LimitKind; amount: number },
): Promise<T> {
  const hold: Hold = { id, at: p.clock.now(), by: p.instance.id(), task: { kind: 'create', record } };
  const userId = actor.userId;
  const limits = limitsOf(p, actor);
  if (!(await p.usage.reserve(userId, kind, 1, limits[kind], hold))) throw await refusal(p, userId, kind, limits[kind]);
  const when = { by: hold.by, kind: 'create' as const };
  const undo = () => Promise.allSettled([p.usage.releaseHold(userId, id, when)]);
  let made: T;
  try {
    if (also && also.amount > 0 && !(await p.usage.reserve(userId, also.kind, also.amount, limits[also.kind], hold))) {
      throw await refusal(p, userId, also.kind, limits[also.kind]);
    }
    made = await create.insert();
  } catch (err) {
    await undo();
    throw err;
  }
  const failed = create.check ? await create.check(made).catch((err: unknown) => err as Error) : null;
  if (failed) {
    await giveBack(p, userId, id, when, () => create.takeBack(made), record === 'share');
    throw failed;
  }
  // A failed settle leaves the hold to this instance's stop: the record stands either way.
  const held = await p.usage.settleHold(userId, id, when).catch(() => undefined);
  if (held === null && !(await dropUnderWay(p, userId, id)) && (await p.usage.wasGivenBack(userId, id))) {
    // The hold is gone: this instance was taken for dead (its lease ran out while it stalled) and the sweep, finding
    // no record yet, gave the count back. A record its counters do not cover must not stay. (Gone otherwise: the sweep
    // found the record and settled the hold, or a removal that counted the record forgot it; the count is the
    // record's either way.)
    await create.takeBack(made);
    throw new Error('The create outlived its instance’s lease and its reservation was given back');
  }
  return made;
}

/** The record goes; its counts with it when this call deleted it, else the delete that got there gives them back. */
async function giveBack(
  p: HeldDeps,
  userId: string,
  id: string,
  when: { by: string; kind: 'create' },
  takeBack: () => Promise<boolean>,
  share: boolean,
): Promise<void> {
  const deleted = await takeBack().catch(() => false);
  if (!deleted) {
    await Promise.allSettled([p.usage.settleHold(userId, id, when)]);
    return;
  }
  const released = await p.usage.releaseHold(userId, id, when).catch(() => true);
  // A share deleted here whose create's hold is no longer this create's: its owner's delete, which read it before, took
  // the hold over (beginDrop) and, finding nothing left to claim, gives nothing back; or the sweep, this instance taken
  // for dead, settled the hold (found the share). Either way the count is still counted, and this call's to give back;
  // unless the sweep gave it back (marked so). Other records' deletes judge from the record and that mark instead.
  if (!released && share && !(await p.usage.wasGivenBack(userId, id))) await p.usage.release(userId, 'shares', 1);
}

/** Whether a delete of the record took its create's hold over (beginDrop): the record is its now. */
async function dropUnderWay(p: HeldDeps, userId: string, id: string): Promise<boolean> {
  const holds = await p.usage.holdsOf(userId).catch(() => []);
  return holds.some((hold) => hold.holdId === id && hold.task?.kind === 'drop');
}

/**
 * Deletes one small record that no removal counts (a token, a file request) under a hold named by its id, naming
 * this instance and holding what the delete gives back (`amounts`), written before anything is deleted; `remove`
 * deletes it (true when this call did), and the hold's release gives the counts back in one step. Cut anywhere, the
 * sweep of gone instances finishes it (finishDrop).
 * 'busy' when another delete of the record is under way; false when the record was gone already.
 */
export async function dropHeld(
  p: Pick<Ports, 'usage' | 'instance' | 'clock'>,
  userId: string,
  record: RecordKind,
  id: string,
  amounts: Amounts,
  remove: () => Promise<boolean>,
): Promise<boolean | 'busy'> {
  const by = p.instance.id();
  if (!(await p.usage.beginDrop(userId, { id, at: p.clock.now(), by }, record, amounts))) return 'busy';
  const when = { by, kind: 'drop' as const };
  if (await remove()) {
    // Marked: a delete of the record that wrote its hold meanwhile and was cut then knows the counts went back here.
    // A hold gone already was finished by the sweep (this instance taken for dead while it stalled): it gave them back.
    // (No removal counts these records; shares, which removals do count, are deleted through dropShared.)
    await p.usage.releaseHold(userId, id, when, 'given back');
    return true;
  }
  await p.usage.settleHold(userId, id, when);
  return false;
}

/** The records whose delete claims shares: their own (a paste's, a collection's), or itself (a share). */
export type SharedRecord = 'paste' | 'collection' | 'share';
const SHARED: readonly RecordKind[] = ['paste', 'collection', 'share'];
export const claimsShares = (record: RecordKind): record is SharedRecord => SHARED.includes(record);

/**
 * Deletes a paste or a collection with its share, or a share, under a hold named by the record's id, which also
 * names the claim on the shares it takes. Each step is one write, in this order, so a kill between any two leaves
 * what the sweep needs to finish it exactly (finishDrop):
 * 1. beginDrop: the hold, naming this instance, holding the record's own counts (`amounts`; none for a share), not
 *    fixed;
 * 2. `remove` deletes the record (a paste, a collection; true when this call did): a share made of it from now on
 *    finds its item gone and takes itself back;
 * 3. the shares are claimed under the hold's id (the paste's or collection's; a share claims itself): each is
 *    claimed once, so a removal of the same item, or another delete, never counts it too (those it claimed are
 *    gone for this call);
 * 4. fixHeld adds the claimed shares' count and fixes the hold, forgetting their creates' holds (their counts are
 *    this delete's now). Until then no claimed share is deleted, so claiming again (which returns the shares this
 *    hold claimed before) counts them exactly; from then on the hold holds exactly what goes back;
 * 5. the claimed shares are deleted;
 * 6. the hold's release gives its counts back (marked given back). When the record was not this call's (another
 *    delete got there first and gave its counts back), the record's own counts are trimmed off the hold first: only
 *    its shares' go back. For a share, it is this call's when this call claimed it.
 * 'busy' when another delete of the record is under way; else whether the record was this call's.
 */
export async function dropShared(
  p: Pick<Ports, 'usage' | 'instance' | 'clock'> & RecordDeps,
  userId: string,
  record: SharedRecord,
  id: string,
  amounts: Amounts,
  remove: () => Promise<boolean> = async () => false,
): Promise<boolean | 'busy'> {
  const by = p.instance.id();
  if (!(await p.usage.beginDrop(userId, { id, at: p.clock.now(), by }, record, amounts, true))) return 'busy';
  const removed = await remove();
  const claimed = await claimSharesOf(p, userId, record, id);
  await deleteClaimedShares(p, id);
  const ours = record === 'share' ? claimed > 0 : removed;
  await endDrop(p, userId, id, ours, amounts, { by, kind: 'drop' });
  return ours;
}

/**
 * Steps 3 and 4 of dropShared: claims the shares and fixes the hold with their count. Returns how many were claimed.
 * A hold fixed already (by the sweep, this instance taken for dead while it stalled) stays as it is.
 */
async function claimSharesOf(p: RecordDeps, userId: string, record: SharedRecord, id: string): Promise<number> {
  let claimed: Share[];
  if (record === 'share') {
    const share = await p.shares.claim(id, id);
    claimed = share ? [share] : [];
  } else {
    claimed = await p.shares.claimByItems(record, [id], id);
  }
  const ids = claimed.map((share) => share.id);
  await p.usage.fixHeld(userId, id, { shares: claimed.length }, [], ids);
  return claimed.length;
}

/** Deletes the shares `claim` holds, and their activity. Only once the hold that counts them is fixed. */
export async function deleteClaimedShares(p: Pick<Ports, 'shares' | 'activityLog' | 'mailNotices'>, claim: string): Promise<void> {
  const deleted = await p.shares.deleteClaimed(claim);
  await forgetActivity(p, { shareIds: deleted.map((share) => share.id) });
}

/**
 * Step 6 of dropShared: the release, marked given back when the record was this delete's; else the record's own
 * counts (`own`: everything but shares) are trimmed off the hold first, each trim only while the hold holds that
 * much, so a repeat trims nothing twice.
 */
async function endDrop(p: RecordDeps, userId: string, id: string, ours: boolean, own: Amounts, when: WhileBy): Promise<void> {
  if (!ours) {
    for (const [kind, amount] of Object.entries(own) as [LimitKind, number][]) {
      if (kind !== 'shares' && amount > 0) await p.usage.trimHeld(userId, id, kind, amount);
    }
  }
  await p.usage.releaseHold(userId, id, when, ours ? 'given back' : undefined);
}

/**
 * The hold of a delete counted `counted` of `kind`; the records it deleted count `actual` (a share made or deleted,
 * a paste rewritten, between the count and the delete). More: the rest goes at once. Fewer: the hold holds less.
 */
export async function follow(
  p: Pick<Ports, 'usage'>,
  userId: string,
  holdId: string,
  kind: LimitKind,
  counted: number,
  actual: number,
): Promise<void> {
  if (actual > counted) await p.usage.release(userId, kind, actual - counted);
  if (actual < counted) await p.usage.trimHeld(userId, holdId, kind, counted - actual);
}

/**
 * Finishes the delete of a record that an instance now gone began (task `drop`): the record is deleted if still there,
 * and the hold's release gives the counts back. A record gone already was deleted by the cut delete itself, or by
 * another delete of it that ran from start to end after this one read the record: that one marked its release given
 * back, and then the counts are not given back twice. A paste's, a collection's or a share's delete (dropShared) goes
 * on from its hold: not fixed, nothing it claimed was deleted yet, so its shares are claimed (again) and counted;
 * fixed, the hold holds exactly what goes back, and only the claimed shares that are left go.
 */
export async function finishDrop(p: RecordDeps, hold: HeldAmounts): Promise<void> {
  if (hold.task?.kind !== 'drop') throw new Error('Not the task of a record’s delete');
  const when = { by: hold.by ?? undefined, kind: 'drop' as const };
  const { userId, holdId } = hold;
  const record = hold.task.record;
  if (claimsShares(record) && hold.task.claims) {
    const removed = record === 'share' ? false : await removeRecord(p, record, holdId);
    const claimed = hold.fixed ? (hold.amounts.shares ?? 0) : await claimSharesOf(p, userId, record, holdId);
    await deleteClaimedShares(p, holdId);
    const ours = record === 'share' ? claimed > 0 : removed || !(await p.usage.wasGivenBack(userId, holdId));
    await endDrop(p, userId, holdId, ours, hold.amounts, when);
    return;
  }
  // A paste's, collection's or share's delete begun by an older version held the share count it guessed from the
  // start and deleted shares without claiming them: what is left of them goes, uncounted, as it would have then.
  const removed = record === 'share' ? (await dropLeftShares(p, holdId)) > 0 : await removeRecord(p, record, holdId);
  if (record === 'paste' || record === 'collection') await dropLeftShares(p, holdId, record);
  if (!removed && (await p.usage.wasGivenBack(userId, holdId))) {
    await p.usage.settleHold(userId, holdId, when);
    return;
  }
  await p.usage.releaseHold(userId, holdId, when, 'given back');
}

/**
 * Claims under `id` and deletes, uncounted, the share `id`, or the shares of the item `id` of type `itemOf`: what an
 * older version's delete left. Returns how many this call deleted.
 */
async function dropLeftShares(p: RecordDeps, id: string, itemOf?: 'paste' | 'collection'): Promise<number> {
  if (itemOf) await p.shares.claimByItems(itemOf, [id], id);
  else await p.shares.claim(id, id);
  const deleted = await p.shares.deleteClaimed(id);
  await forgetActivity(p, { shareIds: deleted.map((share) => share.id) });
  return deleted.length;
}

/**
 * Deletes a record; each step can run again. True when this call deleted the record. A paste's or collection's share
 * is not deleted here but claimed and counted by its delete (dropShared, finishDrop); a share is claimed, not deleted.
 */
export async function removeRecord(p: RecordDeps, record: Exclude<RecordKind, 'share'>, id: string): Promise<boolean> {
  switch (record) {
    case 'paste':
      return (await p.pastes.delete(id)) !== null;
    case 'collection':
      return (await p.collections.delete(id)) !== null;
    case 'token':
      return p.tokens.delete(id);
    case 'folder':
      return (await p.folders.deleteMany([id])) > 0;
    case 'request':
      return (await p.requests.delete(id)) !== null;
  }
}

/** Whether the user's record exists (a folder being deleted counts: its delete will count it). */
export async function recordExists(p: RecordDeps, userId: string, record: RecordKind, id: string): Promise<boolean> {
  switch (record) {
    case 'folder':
      return (await p.folders.chain(id)).length > 0;
    case 'paste':
      return (await p.pastes.findById(id))?.ownerId === userId;
    case 'share':
      // A share a deletion claimed exists: that deletion counts it (and forgets this create's hold when it does).
      return (await p.shares.ownerOf(id)) === userId;
    case 'collection':
      return (await p.collections.findById(id))?.ownerId === userId;
    case 'token':
      return (await p.tokens.findById(id))?.userId === userId;
    case 'request':
      return (await p.requests.findById(id))?.ownerId === userId;
  }
}

/** A create cut by its instance's death after its record was written: the counts are the record's. */
export async function settleCreate(p: RecordDeps, hold: HeldAmounts): Promise<'settled'> {
  await p.usage.settleHold(hold.userId, hold.holdId, { by: hold.by ?? undefined, kind: 'create' });
  return 'settled';
}

/**
 * A create cut before its record was written: the counts go back, marked given back, so its instance, should it live on
 * after all and write the record, knows the record is not counted (createHeld).
 */
export async function undoCreate(p: RecordDeps, hold: HeldAmounts): Promise<'released'> {
  await p.usage.releaseHold(hold.userId, hold.holdId, { by: hold.by ?? undefined, kind: 'create' }, 'given back');
  return 'released';
}
