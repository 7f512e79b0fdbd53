import { describe, expect, it } from 'vitest';
import { MemoryActivityRepository } from '../../src/adapters/memory/index.js';
import type { ActivityEvent, ActivityKind } from '../../src/domain/index.js';

/**
 * The memory activity log keeps events in typed-array columns with a hash table of its own; this drives it and a
 * plain list of events (the model, as simple as can be) with the same long random run of calls and compares every
 * answer: adds with repeated, long and non-ASCII ids, takes and marks under leases, removals, sweeps, pages and the
 * bound, through many growths, wraps of the ring and closings of its holes.
 */

interface ModelRow {
  event: ActivityEvent;
  dispatched: boolean;
  holder: string | null;
  until: number;
}

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const oldestFirst = (a: ActivityEvent, b: ActivityEvent) => a.at.getTime() - b.at.getTime() || byId(a.id, b.id);

class ModelLog {
  rows: ModelRow[] = [];
  constructor(readonly kept: number) {}

  add(events: readonly ActivityEvent[]): string[] {
    const repeated: string[] = [];
    for (const event of events) {
      if (this.rows.some((row) => row.event.id === event.id)) repeated.push(event.id);
      else this.rows.push({ event, dispatched: false, holder: null, until: 0 });
      while (this.rows.length > this.kept) this.rows.shift();
    }
    return repeated;
  }

  page(ownerId: string, shareId: string | undefined, kind: ActivityKind | undefined, after: ActivityEvent | null, limit: number) {
    return this.rows
      .map((row) => row.event)
      .filter((e) => e.ownerId === ownerId && (shareId === undefined || e.shareId === shareId) && (kind === undefined || e.kind === kind))
      .filter((e) => after === null || oldestFirst(e, after) < 0)
      .sort((a, b) => -oldestFirst(a, b))
      .slice(0, limit);
  }

  since(shareId: string, since: number, limit: number) {
    return this.rows
      .map((row) => row.event)
      .filter((e) => e.shareId === shareId && e.at.getTime() >= since)
      .sort(oldestFirst)
      .slice(0, limit);
  }

  take(holder: string, now: number, until: number, limit: number) {
    const taken: ActivityEvent[] = [];
    for (const row of this.rows) {
      if (taken.length === limit) break;
      if (row.dispatched || (row.holder !== null && row.until > now)) continue;
      row.holder = holder;
      row.until = until;
      taken.push(row.event);
    }
    return taken.sort(oldestFirst);
  }

  mark(ids: readonly string[], holder: string): number {
    let marked = 0;
    for (const id of ids) {
      const row = this.rows.find((r) => r.event.id === id);
      if (!row || row.dispatched || row.holder !== holder) continue;
      row.dispatched = true;
      marked++;
    }
    return marked;
  }

  remove(gone: (e: ActivityEvent) => boolean): number {
    const before = this.rows.length;
    this.rows = this.rows.filter((row) => !gone(row.event));
    return before - this.rows.length;
  }
}

/** A small deterministic generator, so a failure repeats. */
function random(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
}

const KINDS: ActivityKind[] = ['view', 'download', 'archive', 'password_refused', 'gone', 'received'];
const SHARES = ['s1', 's2', 's3', 'ß-share'];

describe('the memory activity log against a plain model', () => {
  for (const [seed, kept] of [
    // Small bounds make a small hash table, whose probe runs often wrap past its end.
    [1, 5],
    [2, 13],
    [3, 50],
    [4, 700],
    [5, 3000],
  ] as const) {
    it(`answers as the model does over 6,000 random calls (seed ${seed}, bound ${kept})`, async () => {
      const log = new MemoryActivityRepository();
      log.kept = kept;
      const model = new ModelLog(kept);
      const pick = random(seed);
      const start = Date.UTC(2026, 10, 28);
      let clock = 0;
      let made = 0;
      const ids: string[] = [];
      const newId = () => {
        const n = made++;
        // Mostly ids of ours (22 characters); some short, some long, some not ASCII.
        const id = [`${n}`.padStart(22, 'x'), `e${n}`, `long-${'z'.repeat(40)}-${n}`, `é${n}✓`][pick(10) < 7 ? 0 : 1 + pick(3)]!;
        ids.push(id);
        return id;
      };
      const event = (id: string): ActivityEvent => ({
        id,
        // Several events share a millisecond, so ids decide the order among them.
        at: new Date(start + (clock += pick(3))),
        ownerId: pick(5) === 0 ? 'bob' : 'alice',
        shareId: pick(6) === 0 ? null : SHARES[pick(SHARES.length)]!,
        requestId: null,
        kind: KINDS[pick(KINDS.length)]!,
        fileId: pick(2) ? `file-${pick(4)}` : null,
        bytes: pick(2) ? pick(1 << 20) : null,
        complete: [null, true, false][pick(3)]!,
        client: { address: pick(2) ? `10.0.${pick(3)}.0/24` : null, browser: pick(2) ? 'Firefox' : null, os: null, bot: pick(4) === 0 },
        limitReached: [null, null, 'views', 'downloads'][pick(4)] as ActivityEvent['limitReached'],
      });
      const lease = (): [Date, Date] => [new Date(start + clock), new Date(start + clock + 1 + pick(20))];
      for (let step = 0; step < 6000; step++) {
        const roll = pick(100);
        if (roll < 55) {
          const batch = Array.from({ length: 1 + pick(6) }, () => event(pick(12) === 0 && ids.length > 0 ? ids[pick(ids.length)]! : newId()));
          if (pick(20) === 0) batch.push(batch[0]!);
          const repeated = model.add(batch);
          const added = log.add(batch);
          if (repeated.length > 0) await expect(added).rejects.toThrow(`duplicate activity events ${repeated.join(', ')}`);
          else await added;
        } else if (roll < 70) {
          const holder = ['a', 'b'][pick(2)]!;
          const [now, until] = lease();
          const limit = 1 + pick(30);
          expect(await log.takeUndispatched(holder, now, until, limit)).toEqual(model.take(holder, now.getTime(), until.getTime(), limit));
        } else if (roll < 80) {
          const holder = ['a', 'b'][pick(2)]!;
          const chosen = Array.from({ length: pick(20) }, () => ids[pick(ids.length)] ?? 'none');
          expect(await log.markDispatched(chosen, holder)).toBe(model.mark(chosen, holder));
        } else if (roll < 83) {
          const share = SHARES[pick(SHARES.length)]!;
          await log.removeFor({ shareIds: [share] });
          model.remove((e) => e.shareId === share);
        } else if (roll < 85) {
          const cutoff = start + clock - pick(400);
          expect(await log.sweep(new Date(cutoff))).toBe(model.remove((e) => e.at.getTime() < cutoff));
        } else if (roll < 95) {
          const owner = pick(4) === 0 ? 'bob' : 'alice';
          const share = pick(2) ? SHARES[pick(SHARES.length)] : undefined;
          const kind = pick(3) === 0 ? KINDS[pick(KINDS.length)] : undefined;
          const limit = 1 + pick(40);
          const first = model.page(owner, share, kind, null, limit);
          const filter = { ownerId: owner, ...(share !== undefined && { shareId: share }), ...(kind !== undefined && { kind }) };
          expect(await log.page(filter, null, limit)).toEqual(first);
          const last = first.at(-1);
          if (last) expect(await log.page(filter, { at: last.at, id: last.id }, limit)).toEqual(model.page(owner, share, kind, last, limit));
        } else {
          const share = SHARES[pick(SHARES.length)]!;
          const since = start + clock - pick(300);
          const limit = 1 + pick(50);
          expect(await log.since({ shareId: share }, new Date(since), limit)).toEqual(model.since(share, since, limit));
        }
      }
      // Everything the model keeps, the log keeps, in the same order.
      expect(await log.page({ ownerId: 'alice' }, null, 100_000)).toEqual(model.page('alice', undefined, undefined, null, 100_000));
    });
  }

  it('refuses an event whose kind or limit it could not keep, and keeps nothing of it', async () => {
    const log = new MemoryActivityRepository();
    const event = (id: string, kind: string, limitReached: string | null) =>
      ({ id, at: new Date(), ownerId: 'o', shareId: 's', requestId: null, kind, fileId: null, bytes: null, complete: null,
        client: { address: null, browser: null, os: null, bot: false }, limitReached }) as unknown as ActivityEvent;
    await expect(log.add([event('a', 'peek', null)])).rejects.toThrow('no kind peek');
    await expect(log.add([event('b', 'view', 'uploads')])).rejects.toThrow('limit uploads');
    expect(await log.page({ ownerId: 'o' }, null, 10)).toEqual([]);
  });
});
