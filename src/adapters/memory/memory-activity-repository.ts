import { injectable } from 'inversify';
import type { ActivityEvent } from '../../domain/index.js';
import type { ActivityFilter, ActivityKey, ActivityRepository } from '../../application/ports/index.js';

/**
 * One stored event, flat: its fields are strings, numbers and booleans only (no Date, no nested client), so an event
 * kept is one heap object beside the strings it points at (its id, its address; owner, share and file ids are the
 * records' own strings). A busy instance keeps up to a hundred thousand; as the events given (a dozen objects each:
 * the event, its client, its Date, copies of each) they would cost every garbage collection more, and encoding each
 * into a string instead, as this adapter once did, cost 2 µs of JSON per event on the read that recorded it. Rows are
 * never handed out: every read builds a fresh event from one, so no caller shares the stored state.
 */
interface Row {
  at: number;
  id: string;
  ownerId: string;
  shareId: string | null;
  requestId: string | null;
  kind: ActivityEvent['kind'];
  fileId: string | null;
  bytes: number | null;
  complete: boolean | null;
  address: string | null;
  browser: string | null;
  os: string | null;
  bot: boolean;
  limitReached: ActivityEvent['limitReached'];
  /** Dispatch: waiting (never taken, or its lease ran out at `until`), taken by `holder` until `until`, or done. */
  dispatched: boolean;
  holder: string | null;
  until: number;
}

function rowOf(event: ActivityEvent): Row {
  const { client } = event;
  return {
    at: event.at.getTime(),
    id: event.id,
    ownerId: event.ownerId,
    shareId: event.shareId,
    requestId: event.requestId,
    kind: event.kind,
    fileId: event.fileId,
    bytes: event.bytes,
    complete: event.complete,
    address: client.address,
    browser: client.browser,
    os: client.os,
    bot: client.bot,
    limitReached: event.limitReached,
    dispatched: false,
    holder: null,
    until: 0,
  };
}

function eventOf(row: Row): ActivityEvent {
  return {
    id: row.id,
    at: new Date(row.at),
    ownerId: row.ownerId,
    shareId: row.shareId,
    requestId: row.requestId,
    kind: row.kind,
    fileId: row.fileId,
    bytes: row.bytes,
    complete: row.complete,
    client: { address: row.address, browser: row.browser, os: row.os, bot: row.bot },
    limitReached: row.limitReached,
  };
}

/** Newest first: `at` descending, then `id` descending, as the MongoDB adapter's index orders them. */
const newestFirst = (a: Row, b: Row) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

const before = (row: Row, key: ActivityKey) => row.at < key.at.getTime() || (row.at === key.at.getTime() && row.id < key.id);

/**
 * The most events an instance without a database keeps: the oldest go first past it. Memory is all such an instance
 * has, and it loses the log at every restart anyway; without a bound a busy link would grow the heap by about 250
 * bytes a read for the whole retention (90 days by default), and every collection would cost more as it grew.
 */
export const MEMORY_ACTIVITY_KEPT = 100_000;

/**
 * Events in the order they came, in one array (`rows`; a removed event leaves a hole until the front is cut), with
 * their positions by id. Each take checks and writes in one synchronous step, as findOneAndUpdate does. Positions
 * are counted from the first event ever added (`base` is the position of `rows[0]`), so cutting the front moves none.
 */
@injectable()
export class MemoryActivityRepository implements ActivityRepository {
  private rows: (Row | null)[] = [];
  private base = 0;
  /** No event is kept before this index of `rows`. */
  private head = 0;
  private readonly at = new Map<string, number>();
  /** No event before this position waits for dispatch: a take starts here. */
  private waitingFrom = 0;
  /** The bound (a test lowers it). */
  kept = MEMORY_ACTIVITY_KEPT;

  /** As an unordered insertMany: every new event goes in; a repeated id is refused, after the others. */
  async add(events: readonly ActivityEvent[]): Promise<void> {
    const repeated: string[] = [];
    for (const event of events) {
      if (this.at.has(event.id)) {
        repeated.push(event.id);
        continue;
      }
      this.at.set(event.id, this.base + this.rows.length);
      this.rows.push(rowOf(event));
    }
    this.keepBound();
    if (repeated.length > 0) throw new Error(`duplicate activity events ${repeated.join(', ')}`);
  }

  async page(filter: ActivityFilter, after: ActivityKey | null, limit: number): Promise<ActivityEvent[]> {
    const found: Row[] = [];
    for (let i = this.head; i < this.rows.length; i++) {
      const row = this.rows[i];
      if (row == null || row.ownerId !== filter.ownerId) continue;
      if (filter.shareId !== undefined && row.shareId !== filter.shareId) continue;
      if (filter.requestId !== undefined && row.requestId !== filter.requestId) continue;
      if (filter.kind !== undefined && row.kind !== filter.kind) continue;
      if (after !== null && !before(row, after)) continue;
      found.push(row);
    }
    return found.sort(newestFirst).slice(0, limit).map(eventOf);
  }

  async since(target: { shareId: string } | { requestId: string }, since: Date, limit: number): Promise<ActivityEvent[]> {
    const found: Row[] = [];
    for (let i = this.head; i < this.rows.length; i++) {
      const row = this.rows[i];
      if (row == null || ('shareId' in target ? row.shareId !== target.shareId : row.requestId !== target.requestId)) continue;
      if (row.at < since.getTime()) continue;
      found.push(row);
    }
    return found
      .sort((a, b) => -newestFirst(a, b))
      .slice(0, limit)
      .map(eventOf);
  }

  async removeFor(target: { shareIds?: readonly string[]; requestIds?: readonly string[] }): Promise<void> {
    const shares = new Set(target.shareIds ?? []);
    const requests = new Set(target.requestIds ?? []);
    this.removeWhere((row) => (row.shareId !== null && shares.has(row.shareId)) || (row.requestId !== null && requests.has(row.requestId)));
  }

  async sweep(cutoff: Date): Promise<number> {
    return this.removeWhere((row) => row.at < cutoff.getTime());
  }

  async takeUndispatched(holder: string, now: Date, until: Date, limit: number): Promise<ActivityEvent[]> {
    const taken: Row[] = [];
    this.passDispatched();
    for (let i = this.waitingFrom - this.base; i < this.rows.length && taken.length < limit; i++) {
      const row = this.rows[i];
      if (row == null || row.dispatched || (row.holder !== null && row.until > now.getTime())) continue;
      row.holder = holder;
      row.until = until.getTime();
      taken.push(row);
    }
    // Oldest first, as the MongoDB adapter's sort hands them out.
    return taken.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map(eventOf);
  }

  async markDispatched(ids: readonly string[], holder: string): Promise<number> {
    let marked = 0;
    for (const id of ids) {
      const row = this.rowOf(id);
      if (row === null || row.dispatched || row.holder !== holder) continue;
      row.dispatched = true;
      marked++;
    }
    this.passDispatched();
    return marked;
  }

  private rowOf(id: string): Row | null {
    const position = this.at.get(id);
    return position === undefined ? null : (this.rows[position - this.base] ?? null);
  }

  /** Moves the start of the waiting events past those dispatched or gone. */
  private passDispatched(): void {
    let i = Math.max(0, this.waitingFrom - this.base);
    while (i < this.rows.length && (this.rows[i] == null || this.rows[i]!.dispatched)) i++;
    this.waitingFrom = this.base + i;
  }

  private removeWhere(gone: (row: Row) => boolean): number {
    let removed = 0;
    for (let i = this.head; i < this.rows.length; i++) {
      const row = this.rows[i];
      if (row == null || !gone(row)) continue;
      this.at.delete(row.id);
      this.rows[i] = null;
      removed++;
    }
    this.cutFront();
    return removed;
  }

  /** Past the bound the oldest events go first, waiting ones included. */
  private keepBound(): void {
    while (this.at.size > this.kept && this.head < this.rows.length) {
      const row = this.rows[this.head];
      if (row != null) {
        this.at.delete(row.id);
        this.rows[this.head] = null;
      }
      this.head++;
    }
    this.cutFront();
  }

  /** Passes the holes at the front, and drops them once they are many and at least half of the array. */
  private cutFront(): void {
    while (this.head < this.rows.length && this.rows[this.head] === null) this.head++;
    if (this.head === this.rows.length || (this.head > 4096 && this.head * 2 > this.rows.length)) {
      this.base += this.head;
      this.rows = this.rows.slice(this.head);
      this.head = 0;
    }
    this.waitingFrom = Math.max(this.waitingFrom, this.base + this.head);
  }
}
