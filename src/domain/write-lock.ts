/**
 * Write locks on places in a user's tree (WebDAV's, RFC 4918 §6–7), by path: a lock may stand on a name where nothing
 * is yet. A path is the names from the root joined by '/', beginning with '/' ('/' itself is the root).
 */
export interface WriteLock {
  token: string;
  path: string;
  /** 0: the item only; 'infinity': the item and everything below it. */
  depth: 0 | 'infinity';
  scope: 'exclusive' | 'shared';
  /** What the client said about who holds it (an XML fragment), given back as it came; '' for none. */
  owner: string;
  timeoutSeconds: number;
  expiresAt: Date;
}

export const MAX_LOCK_SECONDS = 7 * 24 * 3600;
export const DEFAULT_LOCK_SECONDS = 3600;
/** Locks one user may hold at once. */
export const MAX_LOCKS_PER_USER = 1000;
export const MAX_LOCK_OWNER_BYTES = 4096;

/** Whether `path` is `root` or lies below it. */
export function isWithin(path: string, root: string): boolean {
  return path === root || root === '/' || path.startsWith(`${root}/`);
}

/** Whether the lock reaches `path`: its own path, or below it for a depth-infinity lock. */
export function covers(lock: WriteLock, path: string): boolean {
  return lock.path === path || (lock.depth === 'infinity' && isWithin(path, lock.path));
}

/** The locks that stand in the way of a new lock at `path` with `depth` and `scope`. */
export function conflicting(
  locks: readonly WriteLock[],
  path: string,
  depth: WriteLock['depth'],
  scope: WriteLock['scope'],
): WriteLock[] {
  return locks.filter((lock) => {
    const overlaps = covers(lock, path) || (depth === 'infinity' && isWithin(lock.path, path));
    return overlaps && (scope === 'exclusive' || lock.scope === 'exclusive');
  });
}

/** The locks whose tokens a change at `path` (and below, for `deep`) must present. */
export function locksOver(locks: readonly WriteLock[], path: string, deep: boolean): WriteLock[] {
  return locks.filter((lock) => covers(lock, path) || (deep && isWithin(lock.path, path)));
}
