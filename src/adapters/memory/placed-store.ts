import { sortName, type FolderRef, type NameKey } from '../../application/ports/index.js';
import { merge, NameIndex } from './name-index.js';

export interface Placed {
  id: string;
  ownerId: string;
  name: string;
}

interface Row<T> {
  id: string;
  item: T;
  /** Lower-cased once on write, so a search over 100,000 names does no case folding per row. */
  lower: string;
}

/**
 * Named records that sit in a folder or at their owner's root (files, folders), indexed by owner and by place
 * so listings and searches touch only the rows they can return, in name order (see NameIndex). Hands out stored
 * references: callers clone.
 */
export class PlacedStore<T extends Placed> {
  private readonly rows = new Map<string, Row<T>>();
  private readonly byOwner = new Map<string, NameIndex<Row<T>>>();
  private readonly byPlace = new Map<string, NameIndex<Row<T>>>();

  constructor(private readonly placeOf: (item: T) => FolderRef) {}

  get(id: string): T | undefined {
    return this.rows.get(id)?.item;
  }

  /** Stores `item` (already a private copy), replacing any record with its id. */
  put(item: T): void {
    this.remove(item.id);
    const row = { id: item.id, item, lower: sortName(item.name) };
    this.rows.set(item.id, row);
    indexIn(this.byOwner, item.ownerId).add(row);
    indexIn(this.byPlace, placeKey(item.ownerId, this.placeOf(item))).add(row);
  }

  remove(id: string): T | undefined {
    const row = this.rows.get(id);
    if (!row) return undefined;
    this.rows.delete(id);
    removeFrom(this.byOwner, row.item.ownerId, id);
    removeFrom(this.byPlace, placeKey(row.item.ownerId, this.placeOf(row.item)), id);
    return row.item;
  }

  ofOwner(ownerId: string): T[] {
    const index = this.byOwner.get(ownerId);
    return index ? Array.from(index.rows(), (row) => row.item) : [];
  }

  /** Ids of the owner's records directly in `place`. */
  idsIn(ownerId: string, place: FolderRef): Iterable<string> {
    return this.byPlace.get(placeKey(ownerId, place))?.ids() ?? [];
  }

  countIn(ownerId: string, place: FolderRef): number {
    return this.byPlace.get(placeKey(ownerId, place))?.size ?? 0;
  }

  /** The owner's records directly in `place` after `after` (strictly, by name then id), at most `limit`. */
  pageIn(ownerId: string, place: FolderRef, after: NameKey | null, limit: number): T[] {
    return items(this.byPlace.get(placeKey(ownerId, place))?.page(after, limit) ?? []);
  }

  /**
   * The owner's records whose lower-cased name contains `query` (a plain substring, never a pattern), in all
   * places (`places` null) or directly in the listed ones; ordered by name then id, at most `limit`.
   */
  find(ownerId: string, places: readonly FolderRef[] | null, query: string, limit: number): T[] {
    const needle = query.toLowerCase();
    if (places === null) return items(this.byOwner.get(ownerId)?.find(needle, limit) ?? []);
    let runs: Row<T>[][] = [];
    for (const place of new Set(places)) {
      const run = this.byPlace.get(placeKey(ownerId, place))?.find(needle, limit);
      if (run && run.length > 0) runs.push(run);
    }
    // Each run is sorted already: merge them in pairs, each merge cut at the page, until one is left. That is
    // log2(folders) passes, each touching every row still in play at most once.
    while (runs.length > 1) {
      const merged: Row<T>[][] = [];
      for (let i = 0; i < runs.length; i += 2) {
        merged.push(i + 1 < runs.length ? merge(runs[i]!, runs[i + 1]!, limit) : runs[i]!);
      }
      runs = merged;
    }
    return items(runs[0] ?? []);
  }
}

function indexIn<T>(indexes: Map<string, NameIndex<Row<T>>>, key: string): NameIndex<Row<T>> {
  let index = indexes.get(key);
  if (!index) indexes.set(key, (index = new NameIndex<Row<T>>()));
  return index;
}

function removeFrom<T>(indexes: Map<string, NameIndex<Row<T>>>, key: string, id: string): void {
  const index = indexes.get(key);
  if (!index) return;
  index.delete(id);
  if (index.size === 0) indexes.delete(key);
}

function items<T>(rows: readonly Row<T>[]): T[] {
  return rows.map((row) => row.item);
}

/** One key per (owner, folder or root); JSON keeps any id unambiguous. */
function placeKey(ownerId: string, place: FolderRef): string {
  return JSON.stringify([ownerId, place]);
}
