import type { ActivityEvent, ActivityKind } from '../../domain/index.js';

export const ActivityRecorder = Symbol('ActivityRecorder');
/**
 * Records an event without the caller waiting: the events of one turn of the event loop go in one database write,
 * started once the turn ends and never awaited by a read; a failed write is logged by the recorder and changes nothing
 * else.
 */
export interface ActivityRecorder {
  record(event: ActivityEvent): void;
}

/** Whose events a listing reads: the owner's, narrowed to one share or request and to one kind. */
export interface ActivityFilter {
  ownerId: string;
  shareId?: string;
  requestId?: string;
  kind?: ActivityKind;
}

/** Newest first: strictly before this event in (at, id) descending order. */
export interface ActivityKey {
  at: Date;
  id: string;
}

export const ActivityRepository = Symbol('ActivityRepository');
/**
 * Where events live until their share or request goes or retention ends. Each event also waits to be dispatched
 * (turned into webhook deliveries and mail notices) by exactly one instance: taken under a lease, marked done after.
 */
export interface ActivityRepository {
  /** The one write the recorded reads of a moment add: the events, each waiting for dispatch. */
  add(events: readonly ActivityEvent[]): Promise<void>;
  /** Newest first, strictly after `after`, at most `limit`. */
  page(filter: ActivityFilter, after: ActivityKey | null, limit: number): Promise<ActivityEvent[]>;
  /** A share's or request's events at or after `since`, oldest first, at most `limit` (mail summaries). */
  since(target: { shareId: string } | { requestId: string }, since: Date, limit: number): Promise<ActivityEvent[]>;
  /** The events of these shares and requests go (they were deleted). */
  removeFor(target: { shareIds?: readonly string[]; requestIds?: readonly string[] }): Promise<void>;
  /** Events older than `before` go (the memory adapter's retention; MongoDB's TTL index does it by itself). */
  sweep(before: Date): Promise<number>;
  /**
   * Takes up to `limit` undispatched events whose dispatch leases are free (never taken, or run out at `now`) for
   * `holder` until `until`, each by a conditional update (none is handed to two takers); oldest first, none when
   * none waits.
   */
  takeUndispatched(holder: string, now: Date, until: Date, limit: number): Promise<ActivityEvent[]>;
  /** These events are dispatched; only their lease holder may say so. Returns how many it marked (others unchanged). */
  markDispatched(ids: readonly string[], holder: string): Promise<number>;
}
