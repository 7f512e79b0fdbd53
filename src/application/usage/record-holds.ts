import type { Actor, LimitKind } from '../../domain/index.js';
import type { HeldAmounts, Hold, Ports, RecordKind } from '../ports/index.js';
import { limitsOf, refusal } from './usage-limits.js';

type Amounts = Partial<Record<LimitKind, number>>;
export type HeldDeps = Pick<Ports, 'usage' | 'settings' | 'instance' | 'clock'>;
export type RecordDeps = Pick<Ports, 'usage' | 'folders' | 'pastes' | 'shares' | 'collections' | 'tokens' | 'requests'>;

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
    await giveBack(p, userId, id, when, () => create.takeBack(made));
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
): Promise<void> {
  const deleted = await takeBack().catch(() => false);
  await Promise.allSettled([deleted ? p.usage.releaseHold(userId, id, when) : p.usage.settleHold(userId, id, when)]);
}

/** Whether a delete of the record took its create's hold over (beginDrop): the record is its now. */
async function dropUnderWay(p: HeldDeps, userId: string, id: string): Promise<boolean> {
  const holds = await p.usage.holdsOf(userId).catch(() => []);
  return holds.some((hold) => hold.holdId === id && hold.task?.kind === 'drop');
}

/**
 * Deletes one small record under a hold named by its id, naming this instance and holding what the delete gives back
 * (`amounts`), written before anything is deleted; `remove` deletes it (true when this call did), and the hold's
 * release gives the counts back in one step. Cut anywhere, the sweep of gone instances finishes it (finishDrop).
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
    if (await p.usage.releaseHold(userId, id, when, 'given back')) return true;
    // The hold is gone: a removal that counted the record (a share, with its item) took it over (fixHeld's forget),
    // and since this call deleted the record before that removal could, the removal leaves its count to this call;
    // unless the sweep gave it back already (this instance taken for dead while it stalled).
    if (!(await p.usage.wasGivenBack(userId, id))) {
      for (const [kind, amount] of Object.entries(amounts) as [LimitKind, number][]) {
        if (amount !== undefined && amount > 0) await p.usage.release(userId, kind, amount);
      }
    }
    return true;
  }
  await p.usage.settleHold(userId, id, when);
  return false;
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
 * Finishes the delete of a record that an instance now gone began (task `drop`): the record and what goes with it
 * (a paste's or collection's share) are deleted if still there, and the hold's release gives the counts back. A record
 * gone already was deleted by the cut delete itself, or by another delete of it that ran from start to end after
 * this one read the record: that one marked its release given back, and then the counts are not given back twice.
 */
export async function finishDrop(p: RecordDeps, hold: HeldAmounts): Promise<void> {
  if (hold.task?.kind !== 'drop') throw new Error('Not the task of a record’s delete');
  const when = { by: hold.by ?? undefined, kind: 'drop' as const };
  const removed = await removeRecord(p, hold.task.record, hold.holdId);
  if (!removed && (await p.usage.wasGivenBack(hold.userId, hold.holdId))) {
    await p.usage.settleHold(hold.userId, hold.holdId, when);
    return;
  }
  await p.usage.releaseHold(hold.userId, hold.holdId, when, 'given back');
}

/** Deletes a record and the share of it, if any; each step can run again. True when this call deleted the record. */
export async function removeRecord(p: RecordDeps, record: RecordKind, id: string): Promise<boolean> {
  switch (record) {
    case 'paste': {
      const deleted = (await p.pastes.delete(id)) !== null;
      await p.shares.deleteByItems('paste', [id]);
      return deleted;
    }
    case 'collection': {
      const deleted = (await p.collections.delete(id)) !== null;
      await p.shares.deleteByItems('collection', [id]);
      return deleted;
    }
    case 'share':
      return (await p.shares.delete(id)) !== null;
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
      return (await p.shares.findById(id))?.ownerId === userId;
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
