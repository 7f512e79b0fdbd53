/** Code-unit order on the lower-cased name, then id: deterministic, and what a stored lower-case key sorts to. */
export function compareNamed(a: { lower: string; id: string }, b: { lower: string; id: string }): number {
  if (a.lower !== b.lower) return a.lower < b.lower ? -1 : 1;
  return compareIds(a.id, b.id);
}

export function compareCreated(a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }): number {
  const diff = a.createdAt.getTime() - b.createdAt.getTime();
  return diff !== 0 ? diff : compareIds(a.id, b.id);
}

function compareIds(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
