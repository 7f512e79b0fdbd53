import type { LimitKind, Usage } from '../../domain/index.js';

export const UsageCounter = Symbol('UsageCounter');

/** Per-user counters. Every change is one atomic operation: never read-then-write. */
export interface UsageCounter {
  /** Adds `amount` to the counter if the result stays within `max`, in one atomic step; false otherwise. */
  reserve(userId: string, kind: LimitKind, amount: number, max: number): Promise<boolean>;
  /** Takes `amount` off the counter, never below zero. */
  release(userId: string, kind: LimitKind, amount: number): Promise<void>;
  /** Current counters (zeros for a user with none yet). */
  get(userId: string): Promise<Usage>;
  /** Overwrites the counters (reconciling only). */
  set(userId: string, usage: Usage): Promise<void>;
  remove(userId: string): Promise<void>;
}
