import { notFound } from '../domain/index.js';

/** Checks a loaded item belongs to the caller; a foreign item is indistinguishable from a missing one. */
export function owned<T extends { ownerId: string }>(item: T | null, userId: string, what: string): T {
  if (!item || item.ownerId !== userId) throw notFound(what);
  return item;
}
