import { inject, injectable } from 'inversify';
import { Double, type Collection, type Db } from 'mongodb';
import { LIMIT_KINDS, ZERO_USAGE, type LimitKind, type Usage } from '../../domain/index.js';
import {
  HOLD_ID,
  GIVEN_BACK_KEPT,
  type HeldAmounts,
  type Hold,
  type RecordKind,
  type Reservation,
  type Task,
  type UsageCounter,
  type WhileBy,
  type WritersWork,
} from '../../application/ports/index.js';
import { isDuplicateKey } from './duplicate-key.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';

/**
 * One document per user. Counters are stored as doubles: storage sums beyond 2^31 bytes would otherwise depend on
 * the server promoting int32 on overflow, and doubles are exact far beyond any realistic byte count.
 */
type Amounts = Partial<Record<LimitKind, number>>;
/**
 * `open`: opened with openHold, so it counts in the document's `openHolds`; `by`: the instance doing the work; `task`,
 * `fixed`, `blobs`: see HeldAmounts.
 */
type HoldDoc = { at: Date; open?: true; by?: string; task?: Task; fixed?: true; blobs?: string[] } & Partial<
  Record<LimitKind, number | Double>
>;
/** `writers`: every instance that opened or grew a hold here since it was last forgotten (indexed). */
export type UsageDoc = {
  _id: string;
  holds?: Record<string, HoldDoc>;
  openHolds?: number;
  writers?: string[];
  /** The last holds released with the mark `given back` (releaseHold), newest last. */
  givenBack?: string[];
} & Record<LimitKind, number | Double>;

/** How often releaseHold re-reads a hold that changed under it before giving up (the next sweep tries again). */
const RELEASE_ATTEMPTS = 5;

function toDoc(userId: string, usage: Usage): UsageDoc {
  const doc = { _id: userId } as UsageDoc;
  for (const kind of LIMIT_KINDS) doc[kind] = new Double(usage[kind]);
  return doc;
}

export function toUsage(doc: UsageDoc | null): Usage {
  const usage = { ...ZERO_USAGE };
  if (doc) for (const kind of LIMIT_KINDS) usage[kind] = Number(doc[kind] ?? 0);
  return usage;
}

function heldAmounts(userId: string, holdId: string, hold: HoldDoc): HeldAmounts {
  return {
    userId,
    holdId,
    amounts: amountsOf(hold),
    at: hold.at,
    by: hold.by ?? null,
    task: hold.task ?? null,
    fixed: hold.fixed === true,
    blobs: hold.blobs ?? [],
  };
}

/** A new hold's list of blobs, when it is opened with one. */
const blobsOf = (hold: Hold): { blobs?: string[] } => (hold.blob === undefined ? {} : { blobs: [hold.blob] });

/** The filter on a hold's instance and task that `when` asks for (none: any). */
function whileBy(holdId: string, when: WhileBy = {}): Record<string, string> {
  return {
    ...(when.by !== undefined && { [holdPath(holdId, 'by')]: when.by }),
    ...(when.kind !== undefined && { [holdPath(holdId, 'task.kind')]: when.kind }),
  };
}

/** How often fixHeld looks again when a hold it was to forget turned out to stand for other work than a create. */
const FIX_ATTEMPTS = 5;
/** Up to this many holds to forget are named in fixHeld's filter as they are; more are looked up first. */
const FORGET_INLINE = 64;

function amountsOf(hold: HoldDoc): Amounts {
  const amounts: Amounts = {};
  for (const kind of LIMIT_KINDS) if (hold[kind] !== undefined) amounts[kind] = Number(hold[kind]);
  return amounts;
}

/** The dotted path of a hold (or one of its fields); the id is checked so it can never address another field. */
function holdPath(holdId: string, field?: string): string {
  if (!HOLD_ID.test(holdId)) throw new RangeError(`Invalid hold id: ${JSON.stringify(holdId)}`);
  return field === undefined ? `holds.${holdId}` : `holds.${holdId}.${field}`;
}

/** Every change is one conditional update on the server: the check and the change cannot be interleaved. */
@injectable()
export class MongoUsageCounter implements UsageCounter {
  private readonly usage: Collection<UsageDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.usage = db.collection<UsageDoc>(COLLECTIONS.usage);
  }

  /**
   * The conditional $inc cannot upsert (a miss on an existing, full counter would try to insert a duplicate), so a
   * first miss checks whether the document is there, creates the zero document if not, and tries once more.
   */
  async reserve(userId: string, kind: LimitKind, amount: number, max: number, hold?: Hold): Promise<boolean> {
    assertAmount(amount);
    if (hold) holdPath(hold.id);
    if (await this.tryIncrement(userId, kind, amount, max, hold)) return true;
    await this.ensureDocument(userId);
    return this.tryIncrement(userId, kind, amount, max, hold);
  }

  /** The count of opened holds lives in the same document as the holds, so admitting one is one conditional update. */
  async openHold(userId: string, hold: Hold, maxOpen: number): Promise<boolean> {
    const path = holdPath(hold.id);
    const open = async () =>
      (
        await this.usage.updateOne(
          { _id: userId, [path]: { $exists: false }, openHolds: { $not: { $gte: maxOpen } } },
          {
            $set: { [path]: { at: hold.at, open: true, by: hold.by, ...blobsOf(hold), ...(hold.task && { task: hold.task }) } },
            $inc: { openHolds: 1 },
            $addToSet: { writers: hold.by },
          },
        )
      ).matchedCount === 1;
    if (await open()) return true;
    await this.ensureDocument(userId);
    return open();
  }

  async openHoldReserving(userId: string, hold: Hold, maxOpen: number, first: Reservation): Promise<boolean> {
    assertAmount(first.amount);
    const { kind, amount, max } = first;
    const path = holdPath(hold.id);
    const { matchedCount } = await this.usage.updateOne(
      { _id: userId, [path]: { $exists: false }, openHolds: { $not: { $gte: maxOpen } }, [kind]: { $lte: max - amount } },
      {
        $set: { [path]: { at: hold.at, open: true, by: hold.by, ...blobsOf(hold), ...(hold.task && { task: hold.task }), [kind]: new Double(amount) } },
        $inc: { openHolds: 1, [kind]: new Double(amount) },
        $addToSet: { writers: hold.by },
      },
    );
    return matchedCount === 1;
  }

  /**
   * Without pipeline updates (which not every server speaks) the floor at zero takes two conditional steps: the
   * usual decrement when the counter holds enough, else zeroing when it holds less (or nothing). A concurrent change between
   * them makes both miss; the loop then looks again, and stops once the document is gone.
   */
  async release(userId: string, kind: LimitKind, amount: number): Promise<void> {
    assertAmount(amount);
    if (amount === 0) return;
    for (;;) {
      const dec = await this.usage.updateOne(
        { _id: userId, [kind]: { $gte: amount } },
        { $inc: { [kind]: new Double(-amount) } },
      );
      if (dec.matchedCount === 1) return;
      const zero = await this.usage.updateOne(
        { _id: userId, [kind]: { $not: { $gte: amount } } },
        { $set: { [kind]: new Double(0) } },
      );
      if (zero.matchedCount === 1) return;
      if (!(await this.usage.findOne({ _id: userId }, { projection: { _id: 1 } }))) return;
    }
  }

  /** An opened hold and its count go in one step; a hold is opened or not for its whole life, so two tries suffice. */
  async settleHold(userId: string, holdId: string, when?: WhileBy): Promise<Amounts | null> {
    const path = holdPath(holdId);
    // A task's hold is never an opened one: one command.
    const opened = when?.kind !== undefined ? null : await this.settleOpened(userId, holdId, when);
    if (opened) return opened;
    const before = await this.usage.findOneAndUpdate(
      { _id: userId, [path]: { $exists: true }, [holdPath(holdId, 'open')]: { $exists: false }, ...whileBy(holdId, when) },
      { $unset: { [path]: '' } },
      { projection: { [path]: 1 }, returnDocument: 'before' },
    );
    const hold = before?.holds?.[holdId];
    return hold ? amountsOf(hold) : null;
  }

  private async settleOpened(userId: string, holdId: string, when?: WhileBy): Promise<Amounts | null> {
    const path = holdPath(holdId);
    const opened = await this.usage.findOneAndUpdate(
      { _id: userId, [holdPath(holdId, 'open')]: true, ...whileBy(holdId, when) },
      { $unset: { [path]: '' }, $inc: { openHolds: -1 } },
      { projection: { [path]: 1 }, returnDocument: 'before' },
    );
    const openedHold = opened?.holds?.[holdId];
    return openedHold ? amountsOf(openedHold) : null;
  }

  /**
   * Without pipeline updates the hold's amounts are read first; the update then names them (and the absence of every
   * other kind) in its filter, so it applies only to the hold as read. Each counter is decremented when it holds
   * enough and zeroed when it holds less, decided on the counter as read and checked by the same filter.
   */
  async releaseHold(userId: string, holdId: string, when?: WhileBy, mark?: 'given back'): Promise<boolean> {
    const path = holdPath(holdId);
    for (let attempt = 0; attempt < RELEASE_ATTEMPTS; attempt++) {
      const doc = await this.usage.findOne({ _id: userId, [path]: { $exists: true }, ...whileBy(holdId, when) });
      const hold = doc?.holds?.[holdId];
      if (!doc || !hold) return false;
      const filter: Record<string, unknown> = { _id: userId, [path]: { $exists: true }, ...whileBy(holdId, when) };
      const inc: Record<string, Double | number> = {};
      filter[holdPath(holdId, 'open')] = hold.open === true ? true : { $exists: false };
      if (hold.open === true) inc['openHolds'] = -1;
      const zero: Record<string, Double> = {};
      for (const [kind, amount] of LIMIT_KINDS.map((k) => [k, hold[k]] as const)) {
        const held = holdPath(holdId, kind);
        if (amount === undefined) {
          filter[held] = { $exists: false };
          continue;
        }
        const a = Number(amount);
        filter[held] = a;
        if (a === 0) continue;
        const enough = Number(doc[kind] ?? 0) >= a;
        filter[kind] = enough ? { $gte: a } : { $lt: a };
        if (enough) inc[kind] = new Double(-a);
        else zero[kind] = new Double(0);
      }
      const update = {
        $unset: { [path]: '' as const },
        ...(Object.keys(inc).length > 0 && { $inc: inc }),
        ...(Object.keys(zero).length > 0 && { $set: zero }),
        // In the same step, so whoever finds the hold gone can tell counts given back from counts kept (settled).
        ...(mark === 'given back' && { $push: { givenBack: { $each: [holdId], $slice: -GIVEN_BACK_KEPT } } }),
      };
      if ((await this.usage.updateOne(filter, update)).matchedCount === 1) return true;
    }
    throw new Error(`The hold ${holdId} of user ${userId} kept changing; it is left for the next sweep`);
  }

  async wasGivenBack(userId: string, holdId: string): Promise<boolean> {
    return (await this.usage.findOne({ _id: userId, givenBack: holdId }, { projection: { _id: 1 } })) !== null;
  }

  async claimHold(userId: string, holdId: string, by: string, blobs: readonly string[] = []): Promise<boolean> {
    const { matchedCount } = await this.usage.updateOne(
      { _id: userId, [holdPath(holdId)]: { $exists: true } },
      {
        $set: { [holdPath(holdId, 'by')]: by },
        $addToSet: { writers: by, [holdPath(holdId, 'blobs')]: { $each: [...blobs] } },
      },
    );
    return matchedCount === 1;
  }


  async disownHold(userId: string, holdId: string, by: string): Promise<boolean> {
    const { matchedCount } = await this.usage.updateOne(
      { _id: userId, [holdPath(holdId, 'by')]: by },
      { $unset: { [holdPath(holdId, 'by')]: '' } },
    );
    return matchedCount === 1;
  }

  /** Both holds live in the user's one document, so the move is one conditional update. */
  async moveHeld(userId: string, from: string, to: Pick<Hold, 'id' | 'at'>, kind: LimitKind, amount: number): Promise<boolean> {
    assertAmount(amount);
    const source = holdPath(from);
    const held = amount > 0 ? amount : { $in: [0, null] };
    const { matchedCount } = await this.usage.updateOne(
      {
        _id: userId,
        [holdPath(from, 'open')]: true,
        [holdPath(from, kind)]: held,
        [holdPath(to.id)]: { $exists: true },
      },
      {
        $unset: { [source]: '' },
        $inc: { openHolds: -1, ...(amount > 0 && { [holdPath(to.id, kind)]: new Double(amount) }) },
        $max: { [holdPath(to.id, 'at')]: to.at },
      },
    );
    return matchedCount === 1;
  }

  /**
   * The counter holds at least what its holds hold (a reconcile forgets every hold), so its condition only keeps the
   * floor at zero exact in that one update.
   */
  async releaseHeld(userId: string, holdId: string, kind: LimitKind, amount: number): Promise<boolean> {
    assertAmount(amount);
    const { matchedCount } = await this.usage.updateOne(
      { _id: userId, [holdPath(holdId, kind)]: { $gte: amount }, [kind]: { $gte: amount } },
      { $inc: { [kind]: new Double(-amount), [holdPath(holdId, kind)]: new Double(-amount) } },
    );
    return matchedCount === 1;
  }

  /** One upsert: a user without counters gets them at zero in the same step. */
  async beginTask(userId: string, hold: Hold, task: Task, amounts?: Amounts): Promise<void> {
    const path = holdPath(hold.id);
    const { _id, ...zeros } = toDoc(userId, ZERO_USAGE);
    const held: Record<string, unknown> = {};
    for (const [kind, amount] of Object.entries(amounts ?? {}) as [LimitKind, number][]) {
      assertAmount(amount);
      held[kind] = new Double(amount);
    }
    if (amounts) held.fixed = true;
    try {
      await this.usage.updateOne(
        { _id: userId, [path]: { $exists: false } },
        {
          $set: { [path]: { at: hold.at, by: hold.by, task, ...held } },
          $addToSet: { writers: hold.by },
          $setOnInsert: zeros,
        },
        { upsert: true },
      );
    } catch (err) {
      // The hold exists already (the filter missed an existing document, so the upsert tried to insert one).
      if (!isDuplicateKey(err)) throw err;
    }
  }

  /**
   * Without pipeline updates a hold cannot be forgotten "if it is a create's": the filter says that each hold to forget
   * is absent or a create's, and a miss caused by one that stands for other work looks again without it.
   */
  async fixHeld(userId: string, holdId: string, amounts: Amounts, blobs: readonly string[], forget: readonly string[] = []): Promise<boolean> {
    const set: Record<string, unknown> = { [holdPath(holdId, 'fixed')]: true, [holdPath(holdId, 'blobs')]: [...blobs] };
    for (const [kind, amount] of Object.entries(amounts) as [LimitKind, number][]) {
      assertAmount(amount);
      set[holdPath(holdId, kind)] = new Double(amount);
    }
    const task = { _id: userId, [holdPath(holdId)]: { $exists: true }, [holdPath(holdId, 'fixed')]: { $exists: false } };
    let forgotten = forget.filter((id) => id !== holdId);
    // Upload holds (upload slots) known opened: forgotten with the count of opened holds, so their slots come back.
    let opened: string[] = [];
    // A large cascade names many records, of which few if any have a create's or an upload's hold: those few are
    // looked up first.
    if (forgotten.length > FORGET_INLINE) ({ forgotten, opened } = await this.forgettableAmong(task, forgotten, true));
    for (let attempt = 0; attempt < FIX_ATTEMPTS; attempt++) {
      const conditions = forgotten.map((id) =>
        opened.includes(id)
          ? { [holdPath(id, 'open')]: true, [holdPath(id, 'task')]: { $exists: false } }
          : {
              $or: [
                { [holdPath(id)]: { $exists: false } },
                { [holdPath(id, 'task.kind')]: { $in: ['create', 'drop'] } },
                { [holdPath(id)]: { $exists: true }, [holdPath(id, 'task')]: { $exists: false }, [holdPath(id, 'open')]: { $exists: false } },
              ],
            },
      );
      const { matchedCount } = await this.usage.updateOne(
        { ...task, ...(conditions.length > 0 && { $and: conditions }) },
        {
          $set: set,
          ...(forgotten.length > 0 && { $unset: Object.fromEntries(forgotten.map((id) => [holdPath(id), ''])) }),
          ...(opened.length > 0 && { $inc: { openHolds: -opened.length } }),
        },
      );
      if (matchedCount === 1) return true;
      if (forgotten.length === 0 || !(await this.usage.findOne(task, { projection: { _id: 1 } }))) return false;
      ({ forgotten, opened } = await this.forgettableAmong(task, forgotten, false));
    }
    throw new Error(`The hold ${holdId} of user ${userId} kept changing; it is left for the next sweep`);
  }

  /**
   * Those of `ids` whose hold a removal may forget (a create's, a delete's, or an upload's: no task), or, unless
   * `present`, that have none, in the document `filter` finds; `opened`: those among them that are upload slots.
   */
  private async forgettableAmong(
    filter: Record<string, unknown>,
    ids: readonly string[],
    present: boolean,
  ): Promise<{ forgotten: string[]; opened: string[] }> {
    const doc = await this.usage.findOne(filter, { projection: { holds: 1 } });
    const holds = doc?.holds ?? {};
    const forgotten = ids.filter((id) => {
      const hold = holds[id];
      return hold === undefined ? !present : hold.task === undefined || hold.task.kind === 'create' || hold.task.kind === 'drop';
    });
    return { forgotten, opened: forgotten.filter((id) => holds[id]?.open === true && holds[id].task === undefined) };
  }

  /** One conditional update; a user without counters (records older than them) gets them at zero first. */
  async beginDrop(userId: string, hold: Hold, record: RecordKind, amounts: Amounts, claims = false): Promise<boolean> {
    const path = holdPath(hold.id);
    const held: Record<string, Double> = {};
    for (const [kind, amount] of Object.entries(amounts) as [LimitKind, number][]) {
      assertAmount(amount);
      held[kind] = new Double(amount);
    }
    const task = { kind: 'drop' as const, record, ...(claims && { claims: true as const }) };
    const begin = async () =>
      (
        await this.usage.updateOne(
          { _id: userId, $or: [{ [path]: { $exists: false } }, { [holdPath(hold.id, 'task.kind')]: 'create' }] },
          {
            $set: { [path]: { at: hold.at, by: hold.by, task, ...(!claims && { fixed: true }), ...held } },
            $addToSet: { writers: hold.by },
          },
        )
      ).matchedCount === 1;
    if (await begin()) return true;
    if (await this.usage.findOne({ _id: userId }, { projection: { _id: 1 } })) return false;
    await this.ensureDocument(userId);
    return begin();
  }

  async trimHeld(userId: string, holdId: string, kind: LimitKind, amount: number): Promise<boolean> {
    assertAmount(amount);
    const { matchedCount } = await this.usage.updateOne(
      { _id: userId, [holdPath(holdId, kind)]: { $gte: amount } },
      { $inc: { [holdPath(holdId, kind)]: new Double(-amount) } },
    );
    return matchedCount === 1;
  }

  async holdsOf(userId: string): Promise<HeldAmounts[]> {
    const doc = await this.usage.findOne({ _id: userId }, { projection: { holds: 1 } });
    return Object.entries(doc?.holds ?? {}).map(([holdId, hold]) => heldAmounts(userId, holdId, hold));
  }

  /** Hold ids are field names, so the ages are compared here; one document per user keeps the hourly scan small. */
  async staleHolds(olderThan: Date): Promise<HeldAmounts[]> {
    const stale: HeldAmounts[] = [];
    const docs = this.usage.find({ holds: { $exists: true } }, { projection: { holds: 1 } });
    for await (const doc of docs) {
      for (const [holdId, hold] of Object.entries(doc.holds ?? {})) {
        if (hold.at.getTime() < olderThan.getTime()) stale.push(heldAmounts(doc._id, holdId, hold));
      }
    }
    return stale;
  }

  /** Read from the index on `writers` alone. */
  async writers(): Promise<string[]> {
    return (await this.usage.distinct('writers')).filter((writer): writer is string => typeof writer === 'string');
  }

  async workOf(writers: readonly string[]): Promise<WritersWork[]> {
    if (writers.length === 0) return [];
    const wanted = new Set(writers);
    const work: WritersWork[] = [];
    const docs = this.usage.find({ writers: { $in: [...wanted] } }, { projection: { holds: 1, writers: 1 } });
    for await (const doc of docs) {
      const holds = Object.entries(doc.holds ?? {})
        .filter(([, hold]) => hold.by !== undefined && wanted.has(hold.by))
        .map(([holdId, hold]) => heldAmounts(doc._id, holdId, hold));
      work.push({ userId: doc._id, writers: (doc.writers ?? []).filter((w) => wanted.has(w)), holds });
    }
    return work;
  }

  async forgetWriters(userId: string, writers: readonly string[]): Promise<void> {
    if (writers.length === 0) return;
    await this.usage.updateOne({ _id: userId }, { $pull: { writers: { $in: [...writers] } } });
  }

  async get(userId: string): Promise<Usage> {
    return toUsage(await this.usage.findOne({ _id: userId }));
  }

  async set(userId: string, usage: Usage): Promise<void> {
    await this.usage.replaceOne({ _id: userId }, toDoc(userId, usage), { upsert: true });
  }

  async remove(userId: string): Promise<void> {
    await this.usage.deleteOne({ _id: userId });
  }

  /**
   * A miss means a limit is reached or the user has no usage document yet. In the second case a concurrent first
   * change may create it at any moment, so the document's existence now says nothing about the limit: the caller
   * makes sure it exists, then tries once more; the conditional update alone decides.
   */
  private async ensureDocument(userId: string): Promise<void> {
    if (await this.usage.findOne({ _id: userId }, { projection: { _id: 1 } })) return;
    try {
      await this.usage.insertOne(toDoc(userId, ZERO_USAGE));
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }

  private async tryIncrement(
    userId: string,
    kind: LimitKind,
    amount: number,
    max: number,
    hold?: Hold,
  ): Promise<boolean> {
    const inc = { [kind]: new Double(amount), ...(hold && { [holdPath(hold.id, kind)]: new Double(amount) }) };
    const { matchedCount } = await this.usage.updateOne(
      { _id: userId, [kind]: { $lte: max - amount } },
      {
        $inc: inc,
        ...(hold && {
          $max: { [holdPath(hold.id, 'at')]: hold.at },
          $set: { [holdPath(hold.id, 'by')]: hold.by, ...(hold.task && { [holdPath(hold.id, 'task')]: hold.task }) },
          $addToSet: {
            writers: hold.by,
            ...(hold.blob !== undefined && { [holdPath(hold.id, 'blobs')]: hold.blob }),
          },
        }),
      },
    );
    return matchedCount === 1;
  }
}

/** A negative or fractional amount is a bug in the caller: it would let a counter run backwards past its floor. */
function assertAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`Invalid usage amount: ${amount}`);
}
