import { badRequest } from '../../domain/index.js';

/**
 * The page size of the listings beyond the spec's own (root, pastes, collections, API tokens) when the client names
 * none, and the most it may name. Equal, so a client that never pages gets what it always got (the root listed at most
 * 1000 of each kind), and a full page stays a bounded answer.
 */
export const DEFAULT_PAGE_SIZE = 1000;
export const MAX_PAGE_SIZE = 1000;

/** The page size asked for, checked: a whole number from 1 to MAX_PAGE_SIZE; absent, the default. */
export function pageSize(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_PAGE_SIZE;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw badRequest(`limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`, { field: 'limit' });
  }
  return limit;
}

/**
 * A page out of `limit + 1` rows fetched: the first `limit`, and whether more follow. Fetching one row more than the
 * page says whether a next page exists without a second query, so the last page never points at an empty one.
 */
export function cut<T>(rows: readonly T[], limit: number): { items: T[]; more: boolean } {
  return rows.length > limit ? { items: rows.slice(0, limit), more: true } : { items: [...rows], more: false };
}
