import type { Filter, Sort } from 'mongodb';
import { sortName, type CreatedKey, type FolderRef, type NameKey } from '../../application/ports/index.js';

/** Listings and searches order by the stored lower-cased name, then id: the same order the indexes hold. */
export const BY_NAME: Sort = { nameLower: 1, _id: 1 };
export const BY_CREATED: Sort = { createdAt: 1, _id: 1 };

/** Names are matched on a stored lower-cased copy, so neither collation nor a case-insensitive regex is needed. */
export function lowerName(name: string): string {
  return sortName(name);
}

/**
 * The records strictly after a keyset position in BY_NAME order. The `$gte` bounds the index scan (the
 * owner/place/name indexes), and the `$or` only sorts out the rows that share the key's name. Both values are typed
 * (a string and an id), never client JSON.
 */
export function afterName(key: NameKey | null): Record<string, unknown> {
  if (key === null) return {};
  return { nameLower: { $gte: key.lower }, $or: [{ nameLower: { $gt: key.lower } }, { _id: { $gt: key.id } }] };
}

/** The records strictly after a keyset position in BY_CREATED order, as afterName. */
export function afterCreated(key: CreatedKey | null): Record<string, unknown> {
  if (key === null) return {};
  const time = new Date(key.createdAt);
  return { createdAt: { $gte: time }, $or: [{ createdAt: { $gt: time } }, { _id: { $gt: key.id } }] };
}

/**
 * A regex source that matches `text` literally as a substring: every metacharacter is escaped, and NUL (which a
 * BSON regex cannot carry raw) is written as an escape sequence.
 */
export function literalPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\0/g, '\\x00');
}

/** The owner's records (files or folders) placed directly in `places` (null: anywhere) whose name contains `query`. */
export function namedFilter<T>(
  ownerId: string,
  placeField: 'folderId' | 'parentId',
  places: readonly FolderRef[] | null,
  query: string,
): Filter<T> {
  const filter: Record<string, unknown> = { ownerId };
  if (places !== null) filter[placeField] = { $in: [...new Set(places)] };
  const needle = lowerName(query);
  if (needle !== '') filter.nameLower = { $regex: literalPattern(needle) };
  return filter as Filter<T>;
}

/** Counts per place in one aggregation; every asked-for place is present, with 0 when empty. */
export async function countByPlace(
  aggregate: (pipeline: object[]) => Promise<{ _id: string; n: number }[]>,
  ownerId: string,
  placeField: 'folderId' | 'parentId',
  places: readonly string[],
  /** Further conditions every counted record meets. */
  also: Record<string, unknown> = {},
): Promise<Map<string, number>> {
  const counts = new Map(places.map((id): [string, number] => [id, 0]));
  if (places.length === 0) return counts;
  const rows = await aggregate([
    { $match: { ...also, ownerId, [placeField]: { $in: [...new Set(places)] } } },
    { $group: { _id: `$${placeField}`, n: { $sum: 1 } } },
  ]);
  for (const row of rows) counts.set(row._id, row.n);
  return counts;
}
