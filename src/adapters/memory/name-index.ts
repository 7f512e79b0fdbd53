import { compareNamed } from './order.js';

/** A record as the index sees it: its id and its name lower-cased once on write. */
export interface NamedRow {
  id: string;
  lower: string;
}

/** Never part of a stored name (names are cleaned of control characters), so no match spans two names. */
const SEP = '\u0000';

/**
 * The rows of one group (an owner's files, or one folder's), searchable by substring in name order without
 * scanning them all.
 *
 * Most rows sit in `base`, sorted by name then id, with their lower-cased names joined into one string: a search
 * is a run of `indexOf` over that string, and since matches come out in name order it stops at `limit`. A whole
 * account of 100,000 names is searched in about a millisecond instead of the 16–19 ms of testing each name, and
 * a page of the first 500 matches costs no sorting at all.
 *
 * Writes stay O(1): a new row goes to `fresh` (scanned and sorted per search), a removed one is merely dropped
 * from `live` (a base row counts only while `live` still holds that very row). Once the changes outnumber a
 * sixteenth of the base, the next search merges them in: O(n) plus the sort of the fresh rows.
 */
export class NameIndex<R extends NamedRow> {
  private readonly live = new Map<string, R>();
  private readonly fresh = new Set<R>();
  private base: R[] = [];
  private haystack = '';
  /** Where each base row's name starts in `haystack`. */
  private starts = new Int32Array(0);

  get size(): number {
    return this.live.size;
  }

  ids(): IterableIterator<string> {
    return this.live.keys();
  }

  rows(): IterableIterator<R> {
    return this.live.values();
  }

  /** Adds `row`, replacing any row with its id. */
  add(row: R): void {
    this.delete(row.id);
    this.live.set(row.id, row);
    this.fresh.add(row);
  }

  delete(id: string): void {
    const row = this.live.get(id);
    if (!row) return;
    this.live.delete(id);
    this.fresh.delete(row);
  }

  /** The rows whose `lower` contains `needle` (already lower-cased), in name-then-id order, at most `limit`. */
  find(needle: string, limit: number): R[] {
    if (limit <= 0 || this.live.size === 0) return [];
    this.settle();
    const fromBase = this.findInBase(needle, limit);
    if (this.fresh.size === 0) return fromBase;
    const fromFresh: R[] = [];
    for (const row of this.fresh) if (row.lower.includes(needle)) fromFresh.push(row);
    if (fromFresh.length === 0) return fromBase;
    fromFresh.sort(compareNamed);
    return merge(fromBase, fromFresh, limit);
  }

  /**
   * The rows after `after` (strictly, in name-then-id order; null: from the first), at most `limit`. The start is a
   * binary search in the base, so a page deep into a large group costs the page, not the rows before it.
   */
  page(after: NamedRow | null, limit: number): R[] {
    if (limit <= 0 || this.live.size === 0) return [];
    this.settle();
    const fromBase: R[] = [];
    for (let i = after === null ? 0 : firstAfter(this.base, after); i < this.base.length; i++) {
      const row = this.base[i]!;
      if (!this.isLive(row)) continue;
      fromBase.push(row);
      if (fromBase.length === limit) break;
    }
    if (this.fresh.size === 0) return fromBase;
    const fromFresh = [...this.fresh].filter((row) => after === null || compareNamed(row, after) > 0);
    return merge(fromBase, fromFresh.sort(compareNamed), limit);
  }

  /** Merges the changes into the base once they outnumber a sixteenth of it (see the class comment). */
  private settle(): void {
    const stale = this.base.length - (this.live.size - this.fresh.size);
    if (this.fresh.size + stale > 32 + (this.base.length >> 4)) this.compact();
  }

  private findInBase(needle: string, limit: number): R[] {
    const { base, starts, haystack } = this;
    const hits: R[] = [];
    if (needle === '' || needle.includes(SEP)) {
      for (const row of base) {
        if (this.isLive(row) && row.lower.includes(needle)) hits.push(row);
        if (hits.length === limit) break;
      }
      return hits;
    }
    let at = 0;
    let row = 0;
    for (;;) {
      at = haystack.indexOf(needle, at);
      if (at < 0) return hits;
      row = rowAt(starts, at, row);
      const found = base[row]!;
      if (this.isLive(found)) {
        hits.push(found);
        if (hits.length === limit) return hits;
      }
      row += 1;
      if (row >= base.length) return hits;
      at = starts[row]!;
    }
  }

  private isLive(row: R): boolean {
    return this.live.get(row.id) === row;
  }

  /** Folds the fresh rows into the base and drops the removed ones, then rebuilds the joined names. */
  private compact(): void {
    const kept = this.base.filter((row) => this.isLive(row));
    const added = [...this.fresh].sort(compareNamed);
    this.base = merge(kept, added, Infinity);
    this.fresh.clear();
    this.starts = new Int32Array(this.base.length);
    let offset = 0;
    for (let i = 0; i < this.base.length; i++) {
      this.starts[i] = offset;
      offset += this.base[i]!.lower.length + SEP.length;
    }
    this.haystack = this.base.map((row) => row.lower).join(SEP);
  }
}

/** The index of the first row of `rows` (sorted by name then id) that comes strictly after `key`. */
function firstAfter(rows: readonly NamedRow[], key: NamedRow): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (compareNamed(rows[mid]!, key) <= 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The index of the row whose name holds position `at`, searching from `from` on (matches only move forward). */
function rowAt(starts: Int32Array, at: number, from: number): number {
  let low = from;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= at) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** Two lists sorted by name then id, merged, at most `limit`. */
export function merge<R extends NamedRow>(a: readonly R[], b: readonly R[], limit: number): R[] {
  const out: R[] = [];
  let i = 0;
  let j = 0;
  while (out.length < limit && (i < a.length || j < b.length)) {
    if (j >= b.length || (i < a.length && compareNamed(a[i]!, b[j]!) <= 0)) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}
