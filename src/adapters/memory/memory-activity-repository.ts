import { injectable } from 'inversify';
import type { ActivityEvent } from '../../domain/index.js';
import type { ActivityFilter, ActivityKey, ActivityRepository } from '../../application/ports/index.js';
import { clone } from './clone.js';

/**
 * One stored event as one string: `at`, id, owner, share, request and kind, each followed by a separator, then the
 * rest as JSON. A busy instance keeps hundreds of thousands of events; as objects each would be a dozen on the heap
 * (the event, its client, its Date and strings), copied by every young-generation collection it survives and marked
 * by every full one. As one string each is a single object the collector never looks inside, which is what kept
 * `npm run bench`'s reads with activity on near those with it off (docs/BENCHMARKS.md). Ids are base64url, so the
 * separator never occurs in them.
 */
const SEP = '\u0001';

interface Head {
  at: number;
  id: string;
  ownerId: string;
  shareId: string | null;
  requestId: string | null;
  kind: string;
}

function encode(event: ActivityEvent): string {
  const { at, id, ownerId, shareId, requestId, kind, fileId, bytes, complete, client, limitReached } = event;
  const rest = JSON.stringify({ fileId, bytes, complete, client, limitReached });
  return `${at.getTime()}${SEP}${id}${SEP}${ownerId}${SEP}${shareId ?? ''}${SEP}${requestId ?? ''}${SEP}${kind}${SEP}${rest}`;
}

function headOf(row: string): Head & { restAt: number } {
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < 6; i++) {
    const to = row.indexOf(SEP, from);
    parts.push(row.slice(from, to));
    from = to + 1;
  }
  const [at, id, ownerId, shareId, requestId, kind] = parts as [string, string, string, string, string, string];
  return { at: Number(at), id, ownerId, shareId: shareId || null, requestId: requestId || null, kind, restAt: from };
}

function decode(row: string): ActivityEvent {
  const head = headOf(row);
  const rest = JSON.parse(row.slice(head.restAt)) as Pick<ActivityEvent, 'fileId' | 'bytes' | 'complete' | 'client' | 'limitReached'>;
  return {
    id: head.id,
    at: new Date(head.at),
    ownerId: head.ownerId,
    shareId: head.shareId,
    requestId: head.requestId,
    kind: head.kind as ActivityEvent['kind'],
    ...rest,
  };
}

interface Waiting {
  event: ActivityEvent;
  holder: string | null;
  until: number;
}

/** Newest first: `at` descending, then `id` descending, as the MongoDB adapter's index orders them. */
const newestFirst = (a: Head, b: Head) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

const before = (head: Head, key: ActivityKey) => head.at < key.at.getTime() || (head.at === key.at.getTime() && head.id < key.id);

/**
 * The most events an instance without a database keeps: the oldest go first past it. Memory is all such an instance
 * has, and it loses the log at every restart anyway; without a bound a busy link would grow the heap by about 250
 * bytes a read for the whole retention (90 days by default), and every collection would cost more as it grew.
 */
export const MEMORY_ACTIVITY_KEPT = 100_000;

/** Events in insertion order; each take checks and writes in one synchronous step, as findOneAndUpdate does. */
@injectable()
export class MemoryActivityRepository implements ActivityRepository {
  private readonly events = new Map<string, string>();
  /** Ids in the order they came, oldest first from `head` (some already gone), so the oldest go first past the bound. */
  private order: string[] = [];
  private head = 0;
  /** The bound (a test lowers it). */
  kept = MEMORY_ACTIVITY_KEPT;
  /**
   * The events still waiting for dispatch, as given (a taker gets a copy: no decode of the stored row), with their
   * leases once taken. A take never walks what is done.
   */
  private readonly waiting = new Map<string, Waiting>();

  /** As an unordered insertMany: every new event goes in; a repeated id is refused, after the others. */
  async add(events: readonly ActivityEvent[]): Promise<void> {
    const repeated: string[] = [];
    for (const event of events) {
      if (this.events.has(event.id)) {
        repeated.push(event.id);
        continue;
      }
      this.events.set(event.id, encode(event));
      this.waiting.set(event.id, { event: clone(event), holder: null, until: 0 });
      this.order.push(event.id);
    }
    while (this.events.size > this.kept && this.head < this.order.length) this.forget(this.order[this.head++]!);
    if (this.head > 4096 && this.head * 2 > this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
    if (repeated.length > 0) throw new Error(`duplicate activity events ${repeated.join(', ')}`);
  }

  async page(filter: ActivityFilter, after: ActivityKey | null, limit: number): Promise<ActivityEvent[]> {
    const heads: (Head & { row: string })[] = [];
    for (const row of this.events.values()) {
      const head = headOf(row);
      if (head.ownerId !== filter.ownerId) continue;
      if (filter.shareId !== undefined && head.shareId !== filter.shareId) continue;
      if (filter.requestId !== undefined && head.requestId !== filter.requestId) continue;
      if (filter.kind !== undefined && head.kind !== filter.kind) continue;
      if (after !== null && !before(head, after)) continue;
      heads.push({ ...head, row });
    }
    return heads
      .sort(newestFirst)
      .slice(0, limit)
      .map((head) => decode(head.row));
  }

  async since(target: { shareId: string } | { requestId: string }, since: Date, limit: number): Promise<ActivityEvent[]> {
    const heads: (Head & { row: string })[] = [];
    for (const row of this.events.values()) {
      const head = headOf(row);
      if ('shareId' in target ? head.shareId !== target.shareId : head.requestId !== target.requestId) continue;
      if (head.at < since.getTime()) continue;
      heads.push({ ...head, row });
    }
    return heads
      .sort((a, b) => -newestFirst(a, b))
      .slice(0, limit)
      .map((head) => decode(head.row));
  }

  async removeFor(target: { shareIds?: readonly string[]; requestIds?: readonly string[] }): Promise<void> {
    const shares = new Set(target.shareIds ?? []);
    const requests = new Set(target.requestIds ?? []);
    for (const [id, row] of this.events) {
      const head = headOf(row);
      if ((head.shareId !== null && shares.has(head.shareId)) || (head.requestId !== null && requests.has(head.requestId))) this.forget(id);
    }
  }

  async sweep(cutoff: Date): Promise<number> {
    let removed = 0;
    for (const [id, row] of this.events) {
      if (headOf(row).at < cutoff.getTime()) {
        this.forget(id);
        removed++;
      }
    }
    return removed;
  }

  async takeUndispatched(holder: string, now: Date, until: Date, limit: number): Promise<ActivityEvent[]> {
    const taken: ActivityEvent[] = [];
    for (const entry of this.waiting.values()) {
      if (taken.length >= limit) break;
      if (entry.holder !== null && entry.until > now.getTime()) continue;
      entry.holder = holder;
      entry.until = until.getTime();
      taken.push(clone(entry.event));
    }
    // Oldest first, as the MongoDB adapter's sort hands them out.
    return taken.sort((a, b) => a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async markDispatched(ids: readonly string[], holder: string): Promise<number> {
    let marked = 0;
    for (const id of ids) {
      if (this.waiting.get(id)?.holder !== holder) continue;
      this.waiting.delete(id);
      marked++;
    }
    return marked;
  }

  private forget(id: string): void {
    this.events.delete(id);
    this.waiting.delete(id);
  }
}
