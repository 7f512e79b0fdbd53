import { injectable } from 'inversify';
import { ACTIVITY_KINDS, type ActivityEvent } from '../../domain/index.js';
import type { ActivityFilter, ActivityKey, ActivityRepository } from '../../application/ports/index.js';

/**
 * The most events an instance without a database keeps: the oldest go first past it. Memory is all such an instance
 * has, and it loses the log at every restart anyway; without a bound a busy link would grow the process for the whole
 * retention (90 days by default).
 */
export const MEMORY_ACTIVITY_KEPT = 100_000;

const FIRST_SLOTS = 1024;

/**
 * One event's slot: 64 bytes, one cache line, read as 8 doubles or 16 32-bit integers. Doubles: its time, its byte
 * count (NaN for none), the end of its dispatch lease. Integers: indexes into the string pool (0 for null) of its
 * owner, share, request, file, address, browser, system and lease holder; its id's hash; its flags, kind and limit.
 */
const WORDS = 16;
const DOUBLES = 8;
const AT = 0;
const BYTES = 1;
const UNTIL = 2;
const OWNER = 6;
const SHARE = 7;
const REQUEST = 8;
const FILE = 9;
const ADDRESS = 10;
const BROWSER = 11;
const OS = 12;
const HOLDER = 13;
const HASH = 14;
const PACKED = 15;
/** `PACKED` bits: flags, then the kind's index in ACTIVITY_KINDS from bit 8, then the limit from bit 12. */
const LIVE = 1;
const BOT = 2;
const COMPLETE_KNOWN = 4;
const COMPLETE = 8;
const DISPATCHED = 16;
const KIND_SHIFT = 8;
const LIMIT_SHIFT = 12;
const LIMITS = [null, 'views', 'downloads'] as const;

/**
 * Each distinct string once, counted by the events that name it: an owner's, share's or file's id, an address, a
 * browser, a kind. An event keeps indexes into it, so keeping one adds no object a collection must copy or visit.
 */
class StringPool {
  private readonly index = new Map<string, number>();
  private readonly values: (string | null)[] = [null];
  private counts = new Int32Array(64);
  private readonly free: number[] = [];

  /** The string's index, counted once more; 0 for null. */
  take(value: string | null): number {
    if (value === null) return 0;
    let i = this.index.get(value);
    if (i === undefined) {
      i = this.free.pop() ?? this.values.length;
      this.values[i] = value;
      if (i >= this.counts.length) {
        const grown = new Int32Array(this.counts.length * 2);
        grown.set(this.counts);
        this.counts = grown;
      }
      this.index.set(value, i);
    }
    this.counts[i]!++;
    return i;
  }

  /** One event less names it; the string goes with the last. */
  give(i: number): void {
    if (i === 0 || --this.counts[i]! > 0) return;
    this.index.delete(this.values[i]!);
    this.values[i] = null;
    this.free.push(i);
  }

  /** Its index when some event names it, -1 when none does (nothing to find), 0 for null. */
  find(value: string | null): number {
    return value === null ? 0 : (this.index.get(value) ?? -1);
  }

  value(i: number): string | null {
    return this.values[i]!;
  }
}

/**
 * The event log of an instance without a database. Events are kept outside the JavaScript heap, each in a 64-byte
 * slot of one buffer (see WORDS), in a ring in the order they came; the strings they name are kept once each in a
 * pool. An event kept is therefore one object only, its id string: as objects (one per event, found through a map by
 * id), each event outlived two young-generation collections at a few thousand reads a second and was copied by both,
 * which cost a share read more than recording it did; as columns (an array per field) each event touched a dozen cache
 * lines. Ids are found through an open-addressing hash table of (slot, hash) pairs. Every read builds fresh events,
 * so no caller shares the stored state; each take checks and writes in one synchronous step, as findOneAndUpdate does.
 */
@injectable()
export class MemoryActivityRepository implements ActivityRepository {
  /** The bound (a test lowers it). */
  kept = MEMORY_ACTIVITY_KEPT;

  private readonly pool = new StringPool();
  private capacity = 0;
  private f64 = new Float64Array(0);
  private i32 = new Int32Array(0);
  /** The one object an event keeps: its id, the string it came with. */
  private ids: string[] = [];
  /** Pairs of (slot + 1, hash) by hash, (0, 0) when empty; linear probing, at least twice as many pairs as slots. */
  private table = new Int32Array(0);
  /** The oldest slot in use, how many are in use from it (holes included) and how many of those hold an event. */
  private head = 0;
  private size = 0;
  private live = 0;
  /** No event among the first `waiting` slots from `head` waits for dispatch: a take starts there. */
  private waiting = 0;

  /** As an unordered insertMany: every new event goes in; a repeated id is refused, after the others. */
  async add(events: readonly ActivityEvent[]): Promise<void> {
    const repeated: string[] = [];
    for (const event of events) {
      // The slot keeps the kind and the limit as indexes: one it cannot name would be read back as another.
      const kind = ACTIVITY_KINDS.indexOf(event.kind);
      const limit = LIMITS.indexOf(event.limitReached);
      if (kind < 0 || limit < 0) throw new Error(`activity event ${event.id}: no kind ${event.kind} or limit ${event.limitReached}`);
      const hash = hashOf(event.id);
      if (this.lookup(event.id, hash) >= 0) {
        repeated.push(event.id);
        continue;
      }
      this.makeRoom();
      this.put(this.slotAt(this.size++), event, hash, (kind << KIND_SHIFT) | (limit << LIMIT_SHIFT));
      while (this.live > this.kept) this.removeOldest();
    }
    if (repeated.length > 0) throw new Error(`duplicate activity events ${repeated.join(', ')}`);
  }

  async page(filter: ActivityFilter, after: ActivityKey | null, limit: number): Promise<ActivityEvent[]> {
    const owner = this.pool.find(filter.ownerId);
    const share = filter.shareId === undefined ? -2 : this.pool.find(filter.shareId);
    const request = filter.requestId === undefined ? -2 : this.pool.find(filter.requestId);
    const kind = filter.kind === undefined ? -2 : ACTIVITY_KINDS.indexOf(filter.kind);
    if (owner <= 0 || share === -1 || request === -1 || kind === -1) return [];
    const i32 = this.i32;
    const found: number[] = [];
    this.each((slot) => {
      const w = slot * WORDS;
      if (i32[w + OWNER] !== owner) return;
      if ((share !== -2 && i32[w + SHARE] !== share) || (request !== -2 && i32[w + REQUEST] !== request)) return;
      if (kind !== -2 && ((i32[w + PACKED]! >> KIND_SHIFT) & 15) !== kind) return;
      if (after !== null && !this.before(slot, after.at.getTime(), after.id)) return;
      found.push(slot);
    });
    return found
      .sort((a, b) => -this.compare(a, b))
      .slice(0, limit)
      .map((slot) => this.eventAt(slot));
  }

  async since(target: { shareId: string } | { requestId: string }, since: Date, limit: number): Promise<ActivityEvent[]> {
    const [field, value] = 'shareId' in target ? [SHARE, target.shareId] : [REQUEST, target.requestId];
    const wanted = this.pool.find(value);
    if (wanted <= 0) return [];
    const found: number[] = [];
    this.each((slot) => {
      if (this.i32[slot * WORDS + field] === wanted && this.f64[slot * DOUBLES + AT]! >= since.getTime()) found.push(slot);
    });
    return found
      .sort((a, b) => this.compare(a, b))
      .slice(0, limit)
      .map((slot) => this.eventAt(slot));
  }

  async removeFor(target: { shareIds?: readonly string[]; requestIds?: readonly string[] }): Promise<void> {
    const shares = new Set((target.shareIds ?? []).map((id) => this.pool.find(id)).filter((i) => i > 0));
    const requests = new Set((target.requestIds ?? []).map((id) => this.pool.find(id)).filter((i) => i > 0));
    if (shares.size === 0 && requests.size === 0) return;
    this.removeWhere((slot) => shares.has(this.i32[slot * WORDS + SHARE]!) || requests.has(this.i32[slot * WORDS + REQUEST]!));
  }

  async sweep(cutoff: Date): Promise<number> {
    const time = cutoff.getTime();
    return this.removeWhere((slot) => this.f64[slot * DOUBLES + AT]! < time);
  }

  async takeUndispatched(holder: string, now: Date, until: Date, limit: number): Promise<ActivityEvent[]> {
    this.passDispatched();
    const { i32, f64 } = this;
    const taken: number[] = [];
    for (let i = this.waiting; i < this.size && taken.length < limit; i++) {
      const slot = this.slotAt(i);
      const w = slot * WORDS;
      const packed = i32[w + PACKED]!;
      if ((packed & LIVE) === 0 || (packed & DISPATCHED) !== 0) continue;
      if (i32[w + HOLDER] !== 0 && f64[slot * DOUBLES + UNTIL]! > now.getTime()) continue;
      this.pool.give(i32[w + HOLDER]!);
      i32[w + HOLDER] = this.pool.take(holder);
      f64[slot * DOUBLES + UNTIL] = until.getTime();
      taken.push(slot);
    }
    // Oldest first, as the MongoDB adapter's sort hands them out.
    return taken.sort((a, b) => this.compare(a, b)).map((slot) => this.eventAt(slot));
  }

  async markDispatched(ids: readonly string[], holder: string): Promise<number> {
    const taker = this.pool.find(holder);
    if (taker <= 0) return 0;
    const i32 = this.i32;
    let marked = 0;
    for (const id of ids) {
      const slot = this.lookup(id, hashOf(id));
      if (slot < 0) continue;
      const w = slot * WORDS;
      if ((i32[w + PACKED]! & DISPATCHED) !== 0 || i32[w + HOLDER] !== taker) continue;
      i32[w + PACKED]! |= DISPATCHED;
      marked++;
    }
    this.passDispatched();
    return marked;
  }

  /** The physical slot of the i-th slot in use, counted from the oldest. */
  private slotAt(i: number): number {
    const slot = this.head + i;
    return slot >= this.capacity ? slot - this.capacity : slot;
  }

  private isLive(slot: number): boolean {
    return (this.i32[slot * WORDS + PACKED]! & LIVE) !== 0;
  }

  private each(visit: (slot: number) => void): void {
    for (let i = 0; i < this.size; i++) {
      const slot = this.slotAt(i);
      if (this.isLive(slot)) visit(slot);
    }
  }

  /** `kindAndLimit`: the kind's and the limit's indexes, shifted into place. */
  private put(slot: number, event: ActivityEvent, hash: number, kindAndLimit: number): void {
    const { client } = event;
    const { i32, f64, pool } = this;
    const w = slot * WORDS;
    const d = slot * DOUBLES;
    f64[d + AT] = event.at.getTime();
    f64[d + BYTES] = event.bytes ?? NaN;
    f64[d + UNTIL] = 0;
    i32[w + OWNER] = pool.take(event.ownerId);
    i32[w + SHARE] = pool.take(event.shareId);
    i32[w + REQUEST] = pool.take(event.requestId);
    i32[w + FILE] = pool.take(event.fileId);
    i32[w + ADDRESS] = pool.take(client.address);
    i32[w + BROWSER] = pool.take(client.browser);
    i32[w + OS] = pool.take(client.os);
    i32[w + HOLDER] = 0;
    i32[w + HASH] = hash;
    const flags = LIVE | (client.bot ? BOT : 0) | (event.complete === null ? 0 : COMPLETE_KNOWN) | (event.complete === true ? COMPLETE : 0);
    i32[w + PACKED] = flags | kindAndLimit;
    this.ids[slot] = event.id;
    this.index(slot, hash);
    this.live++;
  }

  private eventAt(slot: number): ActivityEvent {
    const { i32, f64, pool } = this;
    const w = slot * WORDS;
    const d = slot * DOUBLES;
    const packed = i32[w + PACKED]!;
    const bytes = f64[d + BYTES]!;
    return {
      id: this.ids[slot]!,
      at: new Date(f64[d + AT]!),
      ownerId: pool.value(i32[w + OWNER]!)!,
      shareId: pool.value(i32[w + SHARE]!),
      requestId: pool.value(i32[w + REQUEST]!),
      kind: ACTIVITY_KINDS[(packed >> KIND_SHIFT) & 15]!,
      fileId: pool.value(i32[w + FILE]!),
      bytes: Number.isNaN(bytes) ? null : bytes,
      complete: (packed & COMPLETE_KNOWN) === 0 ? null : (packed & COMPLETE) !== 0,
      client: {
        address: pool.value(i32[w + ADDRESS]!),
        browser: pool.value(i32[w + BROWSER]!),
        os: pool.value(i32[w + OS]!),
        bot: (packed & BOT) !== 0,
      },
      limitReached: LIMITS[(packed >> LIMIT_SHIFT) & 3]!,
    };
  }

  /** The slot holding the id, or -1. */
  private lookup(id: string, hash: number): number {
    const table = this.table;
    const mask = (table.length >> 1) - 1;
    if (mask < 0) return -1;
    for (let p = hash & mask; ; p = (p + 1) & mask) {
      const entry = table[2 * p]!;
      if (entry === 0) return -1;
      if (table[2 * p + 1] === hash && this.ids[entry - 1] === id) return entry - 1;
    }
  }

  private index(slot: number, hash: number): void {
    const table = this.table;
    const mask = (table.length >> 1) - 1;
    let p = hash & mask;
    while (table[2 * p] !== 0) p = (p + 1) & mask;
    table[2 * p] = slot + 1;
    table[2 * p + 1] = hash;
  }

  /** Takes the slot out of the table, moving back the entries after it that probing would no longer reach. */
  private unindex(slot: number): void {
    const table = this.table;
    const mask = (table.length >> 1) - 1;
    let hole = this.i32[slot * WORDS + HASH]! & mask;
    while (table[2 * hole] !== slot + 1) hole = (hole + 1) & mask;
    for (let p = (hole + 1) & mask; table[2 * p] !== 0; p = (p + 1) & mask) {
      const home = table[2 * p + 1]! & mask;
      // The entry at p may fill the hole unless its home lies cyclically in (hole, p].
      if (hole <= p ? home > hole && home <= p : home > hole || home <= p) continue;
      table[2 * hole] = table[2 * p]!;
      table[2 * hole + 1] = table[2 * p + 1]!;
      hole = p;
    }
    table[2 * hole] = 0;
    table[2 * hole + 1] = 0;
  }

  private remove(slot: number): void {
    const { i32, pool } = this;
    const w = slot * WORDS;
    for (let field = OWNER; field <= HOLDER; field++) pool.give(i32[w + field]!);
    this.unindex(slot);
    this.ids[slot] = '';
    i32[w + PACKED] = 0;
    this.live--;
  }

  private removeWhere(gone: (slot: number) => boolean): number {
    let removed = 0;
    this.each((slot) => {
      if (!gone(slot)) return;
      this.remove(slot);
      removed++;
    });
    this.passHoles();
    return removed;
  }

  /** Past the bound the oldest event goes first, a waiting one included. */
  private removeOldest(): void {
    this.passHoles();
    if (this.size === 0) return;
    this.remove(this.head);
    this.passHoles();
  }

  /** Frees the slots at the front that hold no event. */
  private passHoles(): void {
    while (this.size > 0 && !this.isLive(this.head)) {
      this.head = this.head + 1 === this.capacity ? 0 : this.head + 1;
      this.size--;
      if (this.waiting > 0) this.waiting--;
    }
  }

  /** Moves the start of the waiting events past those dispatched or gone. */
  private passDispatched(): void {
    while (this.waiting < this.size) {
      const packed = this.i32[this.slotAt(this.waiting) * WORDS + PACKED]!;
      if ((packed & LIVE) !== 0 && (packed & DISPATCHED) === 0) break;
      this.waiting++;
    }
  }

  /** A slot for one more event: the ring grows up to the bound, closes its holes, or lets its oldest event go. */
  private makeRoom(): void {
    if (this.size < this.capacity) return;
    if (this.live >= this.kept && this.live > 0) {
      this.removeOldest();
      if (this.size < this.capacity) return;
    }
    this.relayout(Math.max(this.live + 1, Math.min(Math.max(this.kept, 1), Math.max(FIRST_SLOTS, this.live * 2))));
  }

  /** Copies the events, oldest first, into a buffer of `capacity` slots, and indexes them anew. */
  private relayout(capacity: number): void {
    const { i32: oldI32, ids: oldIds } = this;
    const slots: number[] = [];
    this.each((slot) => slots.push(slot));
    const buffer = new ArrayBuffer(capacity * WORDS * 4);
    this.capacity = capacity;
    this.f64 = new Float64Array(buffer);
    this.i32 = new Int32Array(buffer);
    this.ids = new Array<string>(capacity).fill('');
    this.table = new Int32Array(2 * 2 ** Math.ceil(Math.log2(capacity * 2)));
    slots.forEach((from, to) => {
      this.i32.set(oldI32.subarray(from * WORDS, (from + 1) * WORDS), to * WORDS);
      this.ids[to] = oldIds[from]!;
      this.index(to, this.i32[to * WORDS + HASH]!);
    });
    this.head = 0;
    this.size = slots.length;
    this.waiting = 0;
    this.passDispatched();
  }

  /** Oldest first: `at`, then the id. */
  private compare(a: number, b: number): number {
    const ids = this.ids;
    return this.f64[a * DOUBLES + AT]! - this.f64[b * DOUBLES + AT]! || (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0);
  }

  /** Strictly before the key in newest-first order: earlier, or as early with a lower id. */
  private before(slot: number, at: number, id: string): boolean {
    const mine = this.f64[slot * DOUBLES + AT]!;
    return mine < at || (mine === at && this.ids[slot]! < id);
  }
}

/** FNV-1a over the id's UTF-16 code units. */
function hashOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash | 0;
}
