import { injectable } from 'inversify';
import type { ActivityEvent } from '../../domain/index.js';
import type { ActivityFilter, ActivityKey, ActivityRepository } from '../../application/ports/index.js';
import { clone } from './clone.js';

interface Stored {
  event: ActivityEvent;
  dispatched: boolean;
  leaseHolder: string | null;
  leaseUntil: Date | null;
}

/** Newest first: `at` descending, then `id` descending, as the MongoDB adapter's index orders them. */
const newestFirst = (a: ActivityEvent, b: ActivityEvent) =>
  b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

const before = (event: ActivityEvent, key: ActivityKey) =>
  event.at.getTime() < key.at.getTime() || (event.at.getTime() === key.at.getTime() && event.id < key.id);

/** Events in insertion order; each take checks and writes in one synchronous step, as findOneAndUpdate does. */
@injectable()
export class MemoryActivityRepository implements ActivityRepository {
  private readonly events = new Map<string, Stored>();
  /** The ids still waiting for dispatch, so a take never walks what is done. */
  private readonly waiting = new Set<string>();

  async add(event: ActivityEvent): Promise<void> {
    if (this.events.has(event.id)) throw new Error(`duplicate activity event ${event.id}`);
    this.events.set(event.id, { event: clone(event), dispatched: false, leaseHolder: null, leaseUntil: null });
    this.waiting.add(event.id);
  }

  async page(filter: ActivityFilter, after: ActivityKey | null, limit: number): Promise<ActivityEvent[]> {
    return [...this.events.values()]
      .map((stored) => stored.event)
      .filter((e) => e.ownerId === filter.ownerId)
      .filter((e) => filter.shareId === undefined || e.shareId === filter.shareId)
      .filter((e) => filter.requestId === undefined || e.requestId === filter.requestId)
      .filter((e) => filter.kind === undefined || e.kind === filter.kind)
      .filter((e) => after === null || before(e, after))
      .sort(newestFirst)
      .slice(0, limit)
      .map(clone);
  }

  async since(target: { shareId: string } | { requestId: string }, since: Date, limit: number): Promise<ActivityEvent[]> {
    return [...this.events.values()]
      .map((stored) => stored.event)
      .filter((e) => ('shareId' in target ? e.shareId === target.shareId : e.requestId === target.requestId))
      .filter((e) => e.at.getTime() >= since.getTime())
      .sort((a, b) => -newestFirst(a, b))
      .slice(0, limit)
      .map(clone);
  }

  async removeFor(target: { shareIds?: readonly string[]; requestIds?: readonly string[] }): Promise<void> {
    const shares = new Set(target.shareIds ?? []);
    const requests = new Set(target.requestIds ?? []);
    for (const [id, { event }] of this.events) {
      if ((event.shareId !== null && shares.has(event.shareId)) || (event.requestId !== null && requests.has(event.requestId))) {
        this.events.delete(id);
        this.waiting.delete(id);
      }
    }
  }

  async sweep(cutoff: Date): Promise<number> {
    let removed = 0;
    for (const [id, { event }] of this.events) {
      if (event.at.getTime() < cutoff.getTime()) {
        this.events.delete(id);
        this.waiting.delete(id);
        removed++;
      }
    }
    return removed;
  }

  async takeUndispatched(holder: string, now: Date, until: Date): Promise<ActivityEvent | null> {
    for (const id of this.waiting) {
      const stored = this.events.get(id);
      if (!stored || stored.dispatched) continue;
      if (stored.leaseUntil !== null && stored.leaseUntil.getTime() > now.getTime()) continue;
      stored.leaseHolder = holder;
      stored.leaseUntil = new Date(until);
      return clone(stored.event);
    }
    return null;
  }

  async markDispatched(id: string, holder: string): Promise<boolean> {
    const stored = this.events.get(id);
    if (!stored || stored.dispatched || stored.leaseHolder !== holder) return false;
    stored.dispatched = true;
    this.waiting.delete(id);
    stored.leaseHolder = null;
    stored.leaseUntil = null;
    return true;
  }
}
