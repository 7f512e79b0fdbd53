/** Code-unit order on the lower-cased name, then id: deterministic, and what a stored lower-case key sorts to. */
export function compareNamed(a: { lower: string; id: string }, b: { lower: string; id: string }): number {
  if (a.lower !== b.lower) return a.lower < b.lower ? -1 : 1;
  return compareIds(a.id, b.id);
}

export function compareCreated(a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }): number {
  const diff = a.createdAt.getTime() - b.createdAt.getTime();
  return diff !== 0 ? diff : compareIds(a.id, b.id);
}

/**
 * One keyset page in creation order: the rows strictly after `after` (null: from the first), at most `limit`.
 * Sorts the group per page: these groups (an owner's pastes, collections or tokens) are bounded by per-user maxima.
 */
export function pageCreated<T extends { createdAt: Date; id: string }>(
  rows: Iterable<T>,
  after: { createdAt: Date; id: string } | null,
  limit: number,
): T[] {
  if (limit <= 0) return [];
  const later = after === null ? [...rows] : [...rows].filter((row) => compareCreated(row, after) > 0);
  return later.sort(compareCreated).slice(0, limit);
}

function compareIds(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
