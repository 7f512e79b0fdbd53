import type { FolderRef } from '../../application/ports/index.js';
import { Groups } from './groups.js';
import { compareNamed, Smallest } from './order.js';

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
 * so listings and searches touch only the rows they can return. Hands out stored references: callers clone.
 */
export class PlacedStore<T extends Placed> {
  private readonly rows = new Map<string, Row<T>>();
  private readonly byOwner = new Groups<string, Row<T>>();
  private readonly byPlace = new Groups<string, Row<T>>();

  constructor(private readonly placeOf: (item: T) => FolderRef) {}

  get(id: string): T | undefined {
    return this.rows.get(id)?.item;
  }

  /** Stores `item` (already a private copy), replacing any record with its id. */
  put(item: T): void {
    this.remove(item.id);
    const row = { id: item.id, item, lower: item.name.toLowerCase() };
    this.rows.set(item.id, row);
    this.byOwner.set(item.ownerId, item.id, row);
    this.byPlace.set(placeKey(item.ownerId, this.placeOf(item)), item.id, row);
  }

  remove(id: string): T | undefined {
    const row = this.rows.get(id);
    if (!row) return undefined;
    this.rows.delete(id);
    this.byOwner.delete(row.item.ownerId, id);
    this.byPlace.delete(placeKey(row.item.ownerId, this.placeOf(row.item)), id);
    return row.item;
  }

  ofOwner(ownerId: string): T[] {
    return Array.from(this.byOwner.get(ownerId).values(), (row) => row.item);
  }

  /** Ids of the owner's records directly in `place`. */
  idsIn(ownerId: string, place: FolderRef): Iterable<string> {
    return this.byPlace.get(placeKey(ownerId, place)).keys();
  }

  countIn(ownerId: string, place: FolderRef): number {
    return this.byPlace.get(placeKey(ownerId, place)).size;
  }

  /**
   * The owner's records whose lower-cased name contains `query` (a plain substring, never a pattern), in all
   * places (`places` null) or directly in the listed ones; ordered by name then id, at most `limit`.
   */
  find(ownerId: string, places: readonly FolderRef[] | null, query: string, limit: number): T[] {
    const needle = query.toLowerCase();
    const hits = new Smallest<Row<T>>(compareNamed, limit);
    const groups =
      places === null
        ? [this.byOwner.get(ownerId)]
        : Array.from(new Set(places), (place) => this.byPlace.get(placeKey(ownerId, place)));
    for (const group of groups) {
      for (const row of group.values()) if (row.lower.includes(needle)) hits.offer(row);
    }
    return hits.sorted().map((row) => row.item);
  }
}

/** One key per (owner, folder or root); JSON keeps any id unambiguous. */
function placeKey(ownerId: string, place: FolderRef): string {
  return JSON.stringify([ownerId, place]);
}
