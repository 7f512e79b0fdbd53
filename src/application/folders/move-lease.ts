import { conflict } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';

/** How long a move lease lasts: an instance that dies holding one blocks its owner's moves for at most this long. */
export const MOVE_LEASE_MS = 20_000;
/**
 * A holder writes only while at least this much of its lease is left: the few writes that follow the check finish
 * long before the lease could pass to another move, unless the instance stalls for longer than this.
 */
export const MOVE_LEASE_MARGIN_MS = 10_000;
/** How long a move waits for a lease another move holds before it answers conflict (try again). */
export const MOVE_LEASE_WAIT_MS = 5_000;

export interface MoveLease {
  /** Throws a retryable conflict when too little of the lease is left to start writing. */
  assertTimeLeft(): void;
}

type Deps = Pick<Ports, 'folders' | 'ids' | 'clock'>;

const busy = () => conflict('Another move of your folders is under way; try again');

/**
 * Runs `task` while holding the owner's move lease, so one owner's folder moves run one at a time across every
 * instance on the database: each move checks the tree with no other move half done, which is what keeps it a tree.
 */
export async function withMoveLease<T>(p: Deps, ownerId: string, task: (lease: MoveLease) => Promise<T>): Promise<T> {
  const holder = p.ids.newId();
  const until = await acquire(p, ownerId, holder);
  const lease: MoveLease = {
    assertTimeLeft() {
      if (until - p.clock.now().getTime() < MOVE_LEASE_MARGIN_MS) {
        throw conflict('The move took too long and was not made; try again');
      }
    },
  };
  try {
    return await task(lease);
  } finally {
    // A lease that cannot be given back runs out by itself; the task's own outcome is what the caller must see.
    await p.folders.releaseMoveLease(ownerId, holder).catch(() => undefined);
  }
}

/** Tries at once, then again after growing pauses (5 ms up to 100 ms) for MOVE_LEASE_WAIT_MS; returns its end. */
async function acquire(p: Deps, ownerId: string, holder: string): Promise<number> {
  let pause = 5;
  for (let waited = 0; ; waited += pause, pause = Math.min(pause * 2, 100)) {
    const now = p.clock.now();
    const until = new Date(now.getTime() + MOVE_LEASE_MS);
    if (await p.folders.acquireMoveLease(ownerId, holder, until, now)) return until.getTime();
    if (waited >= MOVE_LEASE_WAIT_MS) throw busy();
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}
