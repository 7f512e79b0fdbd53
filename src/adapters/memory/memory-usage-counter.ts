import { injectable } from 'inversify';
import { fits, ZERO_USAGE, type LimitKind, type Usage } from '../../domain/index.js';
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

type Amounts = Partial<Record<LimitKind, number>>;
interface HeldEntry {
  amounts: Amounts;
  at: Date;
  /** Opened with openHold, so it counts toward the user's open holds. */
  opened: boolean;
  by: string | null;
  task: Task | null;
  fixed: boolean;
  blobs: string[];
}

const newEntry = (at: Date, by: string, opened: boolean, task: Task | null = null): HeldEntry => ({
  amounts: {},
  at: new Date(at),
  opened,
  by,
  task: task && { ...task },
  fixed: false,
  blobs: [],
});

const names = (entry: HeldEntry | undefined, when: WhileBy = {}) =>
  entry !== undefined &&
  (when.by === undefined || entry.by === when.by) &&
  (when.kind === undefined || entry.task?.kind === when.kind);

/**
 * Every change reads and writes the counter (and its hold) in one synchronous step (no await in between), which is
 * what makes it atomic under concurrent calls, the same guarantee as a conditional `$inc`.
 */
@injectable()
export class MemoryUsageCounter implements UsageCounter {
  private readonly counters = new Map<string, Usage>();
  private readonly holds = new Map<string, Map<string, HeldEntry>>();
  /** Per user, the instances that opened or grew a hold there and were not forgotten since. */
  private readonly writersOf = new Map<string, Set<string>>();
  /** Per user, the last holds released with the mark `given back`, newest last. */
  private readonly givenBackOf = new Map<string, string[]>();

  async reserve(userId: string, kind: LimitKind, amount: number, max: number, hold?: Hold): Promise<boolean> {
    return this.tryReserve(userId, kind, amount, max, hold);
  }

  private tryReserve(userId: string, kind: LimitKind, amount: number, max: number, hold?: Hold): boolean {
    assertAmount(amount);
    if (hold) assertHoldId(hold.id);
    const usage = this.counters.get(userId) ?? { ...ZERO_USAGE };
    if (!fits(usage[kind], amount, max)) return false;
    usage[kind] += amount;
    this.counters.set(userId, usage);
    if (hold) {
      const holds = this.holds.get(userId) ?? new Map<string, HeldEntry>();
      const entry = holds.get(hold.id) ?? newEntry(hold.at, hold.by, false);
      entry.amounts[kind] = (entry.amounts[kind] ?? 0) + amount;
      if (hold.at.getTime() > entry.at.getTime()) entry.at = new Date(hold.at);
      entry.by = hold.by;
      if (hold.task) entry.task = { ...hold.task };
      if (hold.blob !== undefined && !entry.blobs.includes(hold.blob)) entry.blobs.push(hold.blob);
      holds.set(hold.id, entry);
      this.holds.set(userId, holds);
      this.addWriter(userId, hold.by);
    }
    return true;
  }

  private addWriter(userId: string, by: string): void {
    const writers = this.writersOf.get(userId) ?? new Set<string>();
    writers.add(by);
    this.writersOf.set(userId, writers);
  }

  async openHold(userId: string, hold: Hold, maxOpen: number): Promise<boolean> {
    return this.tryOpen(userId, hold, maxOpen);
  }

  private tryOpen(userId: string, hold: Hold, maxOpen: number): boolean {
    assertHoldId(hold.id);
    const holds = this.holds.get(userId) ?? new Map<string, HeldEntry>();
    if (holds.has(hold.id)) return false;
    let open = 0;
    for (const entry of holds.values()) if (entry.opened) open++;
    if (open >= maxOpen) return false;
    const entry = newEntry(hold.at, hold.by, true, hold.task);
    if (hold.blob !== undefined) entry.blobs.push(hold.blob);
    holds.set(hold.id, entry);
    this.holds.set(userId, holds);
    this.addWriter(userId, hold.by);
    // As MongoDB's openHold creates the user's counters document, so openHoldReserving finds it next time.
    if (!this.counters.has(userId)) this.counters.set(userId, { ...ZERO_USAGE });
    return true;
  }

  /** The counters must exist already, as in MongoDB, where this step creates no document. */
  async openHoldReserving(userId: string, hold: Hold, maxOpen: number, first: Reservation): Promise<boolean> {
    assertAmount(first.amount);
    const usage = this.counters.get(userId);
    if (!usage || !fits(usage[first.kind], first.amount, first.max)) return false;
    // No await from the check on: nothing interleaves, so the reservation cannot fail once the hold is open.
    return this.tryOpen(userId, hold, maxOpen) && this.tryReserve(userId, first.kind, first.amount, first.max, hold);
  }

  async release(userId: string, kind: LimitKind, amount: number): Promise<void> {
    assertAmount(amount);
    const usage = this.counters.get(userId);
    if (usage) usage[kind] = Math.max(0, usage[kind] - amount);
  }

  async settleHold(userId: string, holdId: string, when?: WhileBy): Promise<Amounts | null> {
    if (!names(this.holds.get(userId)?.get(holdId), when)) return null;
    const entry = this.takeHold(userId, holdId);
    return entry ? { ...entry.amounts } : null;
  }

  async releaseHold(userId: string, holdId: string, when?: WhileBy, mark?: 'given back'): Promise<boolean> {
    if (!names(this.holds.get(userId)?.get(holdId), when)) return false;
    const entry = this.takeHold(userId, holdId);
    const usage = this.counters.get(userId);
    if (!entry) return false;
    for (const [kind, amount] of Object.entries(entry.amounts) as [LimitKind, number][]) {
      if (usage) usage[kind] = Math.max(0, usage[kind] - amount);
    }
    if (mark === 'given back') this.givenBackOf.set(userId, [...(this.givenBackOf.get(userId) ?? []), holdId].slice(-GIVEN_BACK_KEPT));
    return true;
  }

  async wasGivenBack(userId: string, holdId: string): Promise<boolean> {
    return this.givenBackOf.get(userId)?.includes(holdId) ?? false;
  }

  async claimHold(userId: string, holdId: string, by: string, blobs: readonly string[] = []): Promise<boolean> {
    const entry = this.holds.get(userId)?.get(holdId);
    if (!entry) return false;
    entry.by = by;
    entry.blobs = [...new Set([...entry.blobs, ...blobs])];
    this.addWriter(userId, by);
    return true;
  }


  async disownHold(userId: string, holdId: string, by: string): Promise<boolean> {
    const entry = this.holds.get(userId)?.get(holdId);
    if (!entry || entry.by !== by) return false;
    entry.by = null;
    return true;
  }

  async moveHeld(userId: string, from: string, to: Pick<Hold, 'id' | 'at'>, kind: LimitKind, amount: number): Promise<boolean> {
    assertAmount(amount);
    assertHoldId(to.id);
    const holds = this.holds.get(userId);
    const source = holds?.get(from);
    const target = holds?.get(to.id);
    if (!holds || !source?.opened || !target || (source.amounts[kind] ?? 0) !== amount) return false;
    holds.delete(from);
    if (amount > 0) target.amounts[kind] = (target.amounts[kind] ?? 0) + amount;
    if (to.at.getTime() > target.at.getTime()) target.at = new Date(to.at);
    return true;
  }

  async releaseHeld(userId: string, holdId: string, kind: LimitKind, amount: number): Promise<boolean> {
    assertAmount(amount);
    const entry = this.holds.get(userId)?.get(holdId);
    const usage = this.counters.get(userId);
    if (!entry || !usage || (entry.amounts[kind] ?? 0) < amount) return false;
    entry.amounts[kind] = (entry.amounts[kind] ?? 0) - amount;
    usage[kind] = Math.max(0, usage[kind] - amount);
    return true;
  }

  async beginTask(userId: string, hold: Hold, task: Task, amounts?: Amounts): Promise<void> {
    assertHoldId(hold.id);
    for (const amount of Object.values(amounts ?? {})) assertAmount(amount);
    const holds = this.holds.get(userId) ?? new Map<string, HeldEntry>();
    if (holds.has(hold.id)) return;
    const entry = newEntry(hold.at, hold.by, false, task);
    if (amounts) Object.assign(entry, { amounts: { ...amounts }, fixed: true });
    holds.set(hold.id, entry);
    this.holds.set(userId, holds);
    this.addWriter(userId, hold.by);
    if (!this.counters.has(userId)) this.counters.set(userId, { ...ZERO_USAGE });
  }

  async fixHeld(
    userId: string,
    holdId: string,
    amounts: Amounts,
    blobs: readonly string[],
    forget: readonly string[] = [],
  ): Promise<boolean> {
    for (const amount of Object.values(amounts)) assertAmount(amount);
    for (const id of forget) assertHoldId(id);
    const holds = this.holds.get(userId);
    const entry = holds?.get(holdId);
    if (!holds || !entry || entry.fixed) return false;
    for (const id of forget) {
      const there = holds.get(id);
      // A create's hold, a delete's, or an upload's (an opened one's slot comes back with it: slots are counted from
      // the holds).
      const kind = there?.task?.kind;
      if (id !== holdId && there && (kind === undefined || kind === 'create' || kind === 'drop')) holds.delete(id);
    }
    // Set, not added, as MongoDB's $set does: a hold that held other amounts (a replace's metered bytes) holds these.
    for (const [kind, amount] of Object.entries(amounts) as [LimitKind, number][]) entry.amounts[kind] = amount;
    entry.blobs = [...blobs];
    entry.fixed = true;
    return true;
  }

  async beginDrop(userId: string, hold: Hold, record: RecordKind, amounts: Amounts, claims = false): Promise<boolean> {
    assertHoldId(hold.id);
    for (const amount of Object.values(amounts)) assertAmount(amount);
    const holds = this.holds.get(userId) ?? new Map<string, HeldEntry>();
    const there = holds.get(hold.id);
    if (there && there.task?.kind !== 'create') return false;
    const entry = newEntry(hold.at, hold.by, false, { kind: 'drop', record, ...(claims && { claims: true as const }) });
    entry.amounts = { ...amounts };
    entry.fixed = !claims;
    holds.set(hold.id, entry);
    this.holds.set(userId, holds);
    this.addWriter(userId, hold.by);
    if (!this.counters.has(userId)) this.counters.set(userId, { ...ZERO_USAGE });
    return true;
  }

  async trimHeld(userId: string, holdId: string, kind: LimitKind, amount: number): Promise<boolean> {
    assertAmount(amount);
    const entry = this.holds.get(userId)?.get(holdId);
    if (!entry || (entry.amounts[kind] ?? 0) < amount) return false;
    entry.amounts[kind] = (entry.amounts[kind] ?? 0) - amount;
    return true;
  }

  async holdsOf(userId: string): Promise<HeldAmounts[]> {
    return [...(this.holds.get(userId) ?? [])].map(([holdId, entry]) => heldAmounts(userId, holdId, entry));
  }

  async staleHolds(olderThan: Date): Promise<HeldAmounts[]> {
    const stale: HeldAmounts[] = [];
    for (const [userId, holds] of this.holds) {
      for (const [holdId, entry] of holds) {
        if (entry.at.getTime() < olderThan.getTime()) stale.push(heldAmounts(userId, holdId, entry));
      }
    }
    return stale;
  }

  async writers(): Promise<string[]> {
    const all = new Set<string>();
    for (const writers of this.writersOf.values()) for (const writer of writers) all.add(writer);
    return [...all];
  }

  async workOf(writers: readonly string[]): Promise<WritersWork[]> {
    const wanted = new Set(writers);
    const work: WritersWork[] = [];
    for (const [userId, named] of this.writersOf) {
      const matching = [...named].filter((writer) => wanted.has(writer));
      if (matching.length === 0) continue;
      const holds = [...(this.holds.get(userId) ?? [])]
        .filter(([, entry]) => entry.by !== null && wanted.has(entry.by))
        .map(([holdId, entry]) => heldAmounts(userId, holdId, entry));
      work.push({ userId, writers: matching, holds });
    }
    return work;
  }

  async forgetWriters(userId: string, writers: readonly string[]): Promise<void> {
    const named = this.writersOf.get(userId);
    for (const writer of writers) named?.delete(writer);
    if (named?.size === 0) this.writersOf.delete(userId);
  }

  async get(userId: string): Promise<Usage> {
    return { ...(this.counters.get(userId) ?? ZERO_USAGE) };
  }

  async set(userId: string, usage: Usage): Promise<void> {
    this.counters.set(userId, { ...usage });
    this.holds.delete(userId);
    this.writersOf.delete(userId);
    this.givenBackOf.delete(userId);
  }

  async remove(userId: string): Promise<void> {
    this.counters.delete(userId);
    this.holds.delete(userId);
    this.writersOf.delete(userId);
    this.givenBackOf.delete(userId);
  }

  private takeHold(userId: string, holdId: string): HeldEntry | undefined {
    const holds = this.holds.get(userId);
    const entry = holds?.get(holdId);
    holds?.delete(holdId);
    if (holds?.size === 0) this.holds.delete(userId);
    return entry;
  }
}

function heldAmounts(userId: string, holdId: string, entry: HeldEntry): HeldAmounts {
  return {
    userId,
    holdId,
    amounts: { ...entry.amounts },
    at: new Date(entry.at),
    by: entry.by,
    task: entry.task && { ...entry.task },
    fixed: entry.fixed,
    blobs: [...entry.blobs],
  };
}

/** A negative or fractional amount is a bug in the caller: it would let a counter run backwards past its floor. */
function assertAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`Invalid usage amount: ${amount}`);
}

function assertHoldId(id: string): void {
  if (!HOLD_ID.test(id)) throw new RangeError(`Invalid hold id: ${JSON.stringify(id)}`);
}
