import { beforeEach, describe, expect, it } from 'vitest';
import type { UsageCounter } from '../../src/application/ports/index.js';
import { ZERO_USAGE, type Usage } from '../../src/domain/index.js';

const usage = (counts: Partial<Usage>): Usage => ({ ...ZERO_USAGE, ...counts });
const T0 = new Date('2026-11-22T10:00:00.000Z');
const later = (ms: number) => new Date(T0.getTime() + ms);
/** Shaped like ids.newId(): base64url, so '-' and '_' occur. */
const HOLD = 'aB3-_xYz0123456789abcd';
/** The instance doing the work, as Instance.id() names it. */
const BY = 'instance-1';

/** Every UsageCounter adapter runs this. `make` must return an adapter over empty storage. */
export function usageCounterContract(name: string, make: () => Promise<UsageCounter>): void {
  describe(name, () => {
    let counter: UsageCounter;
    beforeEach(async () => {
      counter = await make();
    });

    it('reads zeros for a user with no counters yet', async () => {
      expect(await counter.get('u1')).toEqual(ZERO_USAGE);
    });

    it('reserves while the result stays within max, up to exactly max', async () => {
      expect(await counter.reserve('u1', 'files', 1, 2)).toBe(true);
      expect(await counter.reserve('u1', 'files', 1, 2)).toBe(true);
      expect(await counter.reserve('u1', 'files', 1, 2)).toBe(false);
      expect(await counter.get('u1')).toEqual(usage({ files: 2 }));
    });

    it('refuses a reservation that does not fit and changes nothing', async () => {
      expect(await counter.reserve('u1', 'folders', 3, 2)).toBe(false);
      expect(await counter.get('u1')).toEqual(ZERO_USAGE);
      expect(await counter.reserve('u1', 'pastes', 1, 0)).toBe(false);
      expect(await counter.get('u1')).toEqual(ZERO_USAGE);
    });

    it('reserves storage by bytes', async () => {
      expect(await counter.reserve('u1', 'storage', 1000, 2500)).toBe(true);
      expect(await counter.reserve('u1', 'storage', 1000, 2500)).toBe(true);
      expect(await counter.reserve('u1', 'storage', 1000, 2500)).toBe(false);
      expect((await counter.get('u1')).storage).toBe(2000);
      expect(await counter.reserve('u1', 'storage', 500, 2500)).toBe(true);
      expect(await counter.reserve('u1', 'storage', 1, 2500)).toBe(false);
      expect(await counter.reserve('u1', 'storage', 0, 2500)).toBe(true);
      expect(await counter.get('u1')).toEqual(usage({ storage: 2500 }));
    });

    it('counts large byte totals exactly', async () => {
      const fiveTiB = 5 * 2 ** 40;
      expect(await counter.reserve('u1', 'storage', fiveTiB, 2 ** 50)).toBe(true);
      expect(await counter.reserve('u1', 'storage', 1, 2 ** 50)).toBe(true);
      expect((await counter.get('u1')).storage).toBe(fiveTiB + 1);
    });

    it('lets exactly max of many concurrent reservations through', async () => {
      const results = await Promise.all(Array.from({ length: 50 }, () => counter.reserve('u1', 'files', 1, 5)));
      expect(results.filter(Boolean)).toHaveLength(5);
      expect((await counter.get('u1')).files).toBe(5);
    });

    it('keeps storage within max under concurrent reservations of bytes', async () => {
      const results = await Promise.all(
        Array.from({ length: 40 }, () => counter.reserve('u1', 'storage', 300, 1000)),
      );
      expect(results.filter(Boolean)).toHaveLength(3);
      expect((await counter.get('u1')).storage).toBe(900);
    });

    it('stays exact under concurrent releases and reservations', async () => {
      await counter.set('u1', usage({ shares: 20 }));
      await Promise.all([
        ...Array.from({ length: 10 }, () => counter.release('u1', 'shares', 1)),
        ...Array.from({ length: 10 }, () => counter.reserve('u1', 'shares', 1, 1000)),
      ]);
      expect((await counter.get('u1')).shares).toBe(20);
    });

    it('releases, never below zero', async () => {
      await counter.reserve('u1', 'collections', 3, 10);
      await counter.release('u1', 'collections', 2);
      expect((await counter.get('u1')).collections).toBe(1);
      await counter.release('u1', 'collections', 5);
      expect((await counter.get('u1')).collections).toBe(0);
      await counter.release('u2', 'tokens', 1);
      expect(await counter.get('u2')).toEqual(ZERO_USAGE);
      expect(await counter.reserve('u1', 'collections', 10, 10)).toBe(true);
    });

    it('keeps kinds and users apart', async () => {
      await counter.reserve('u1', 'files', 2, 10);
      await counter.reserve('u1', 'storage', 2048, 10_000);
      await counter.reserve('u2', 'files', 1, 10);
      await counter.release('u2', 'storage', 100);
      expect(await counter.get('u1')).toEqual(usage({ files: 2, storage: 2048 }));
      expect(await counter.get('u2')).toEqual(usage({ files: 1 }));
    });

    it('overwrites all counters with set, and forgets a user with remove', async () => {
      await counter.reserve('u1', 'files', 9, 10);
      const reconciled = usage({ storage: 10, files: 1, folders: 2, pastes: 3, collections: 4, shares: 5, tokens: 6 });
      await counter.set('u1', reconciled);
      expect(await counter.get('u1')).toEqual(reconciled);
      expect(await counter.reserve('u1', 'tokens', 1, 6)).toBe(false);
      await counter.remove('u1');
      expect(await counter.get('u1')).toEqual(ZERO_USAGE);
      await counter.remove('u1');
      expect(await counter.get('u1')).toEqual(ZERO_USAGE);
    });

    it('refuses a reservation when max was lowered below the current count', async () => {
      await counter.reserve('u1', 'files', 5, 10);
      expect(await counter.reserve('u1', 'files', 1, 3)).toBe(false);
      expect((await counter.get('u1')).files).toBe(5);
    });

    it('keeps its own copies of the counters', async () => {
      const given = usage({ files: 3 });
      await counter.set('u1', given);
      given.files = 30;
      const read = await counter.get('u1');
      read.files = 300;
      (await counter.get('u2')).files = 1;
      expect(await counter.get('u1')).toEqual(usage({ files: 3 }));
      expect(await counter.get('u2')).toEqual(ZERO_USAGE);
    });

    describe('holds', () => {
      it('records a held reservation with the counter, and settling keeps the counts', async () => {
        expect(await counter.reserve('u1', 'files', 1, 10, { id: HOLD, at: T0, by: BY })).toBe(true);
        expect(await counter.reserve('u1', 'storage', 700, 1000, { id: HOLD, at: later(5), by: BY })).toBe(true);
        expect(await counter.reserve('u1', 'storage', 300, 1000, { id: HOLD, at: later(10), by: BY })).toBe(true);
        expect(await counter.reserve('u1', 'storage', 1, 1000, { id: HOLD, at: later(20), by: BY })).toBe(false);
        expect(await counter.get('u1')).toEqual(usage({ files: 1, storage: 1000 }));
        expect(await counter.staleHolds(later(60_000))).toEqual([
          { userId: 'u1', holdId: HOLD, amounts: { files: 1, storage: 1000 }, at: later(10), by: BY, task: null, fixed: false, blobs: [] },
        ]);
        expect(await counter.settleHold('u1', HOLD)).toEqual({ files: 1, storage: 1000 });
        expect(await counter.settleHold('u1', HOLD)).toBeNull();
        expect(await counter.staleHolds(later(60_000))).toEqual([]);
        expect(await counter.get('u1')).toEqual(usage({ files: 1, storage: 1000 }));
        await counter.releaseHold('u1', HOLD);
        expect(await counter.get('u1')).toEqual(usage({ files: 1, storage: 1000 }));
      });

      it('releases exactly what a hold holds, once, and leaves other holds and counts alone', async () => {
        await counter.set('u1', usage({ files: 4, storage: 5000, shares: 2 }));
        await counter.reserve('u1', 'files', 1, 10, { id: 'h1', at: T0, by: BY });
        await counter.reserve('u1', 'storage', 123, 10_000, { id: 'h1', at: T0, by: BY });
        await counter.reserve('u1', 'files', 1, 10, { id: 'h2', at: T0, by: BY });
        await counter.reserve('u1', 'storage', 7, 10_000);
        await counter.releaseHold('u1', 'h1');
        expect(await counter.get('u1')).toEqual(usage({ files: 5, storage: 5007, shares: 2 }));
        await counter.releaseHold('u1', 'h1');
        await counter.releaseHold('u2', 'h1');
        expect(await counter.get('u1')).toEqual(usage({ files: 5, storage: 5007, shares: 2 }));
        expect((await counter.staleHolds(later(1))).map((h) => h.holdId)).toEqual(['h2']);
      });

      it('floors a released hold at zero when the counter holds less', async () => {
        await counter.reserve('u1', 'files', 1, 10, { id: HOLD, at: T0, by: BY });
        await counter.reserve('u1', 'storage', 900, 1000, { id: HOLD, at: T0, by: BY });
        await counter.release('u1', 'storage', 500);
        await counter.releaseHold('u1', HOLD);
        expect(await counter.get('u1')).toEqual(ZERO_USAGE);
        expect(await counter.staleHolds(later(1))).toEqual([]);
      });

      it('lists only holds that last grew before the cutoff, across users', async () => {
        await counter.reserve('u1', 'files', 1, 10, { id: 'old', at: T0, by: BY });
        await counter.reserve('u1', 'files', 1, 10, { id: 'busy', at: T0, by: BY });
        await counter.reserve('u1', 'storage', 10, 100, { id: 'busy', at: later(3000), by: BY });
        await counter.reserve('u2', 'files', 1, 10, { id: 'other', at: later(1000), by: BY });
        const ids = async (cutoff: Date) => (await counter.staleHolds(cutoff)).map((h) => h.holdId).sort();
        expect(await ids(T0)).toEqual([]);
        expect(await ids(later(1))).toEqual(['old']);
        expect(await ids(later(2000))).toEqual(['old', 'other']);
        expect(await ids(later(3001))).toEqual(['busy', 'old', 'other']);
        const other = (await counter.staleHolds(later(3001))).find((h) => h.holdId === 'other');
        expect(other).toEqual({ userId: 'u2', holdId: 'other', amounts: { files: 1 }, at: later(1000), by: BY, task: null, fixed: false, blobs: [] });
      });

      it('records nothing for a refused held reservation', async () => {
        expect(await counter.reserve('u1', 'files', 1, 0, { id: HOLD, at: T0, by: BY })).toBe(false);
        expect(await counter.staleHolds(later(1))).toEqual([]);
        expect(await counter.settleHold('u1', HOLD)).toBeNull();
      });

      it('forgets holds on set and remove', async () => {
        await counter.reserve('u1', 'files', 1, 10, { id: 'h1', at: T0, by: BY });
        await counter.reserve('u2', 'files', 1, 10, { id: 'h2', at: T0, by: BY });
        await counter.set('u1', usage({ files: 3 }));
        await counter.remove('u2');
        expect(await counter.staleHolds(later(1))).toEqual([]);
        await counter.releaseHold('u1', 'h1');
        expect(await counter.get('u1')).toEqual(usage({ files: 3 }));
      });

      it('refuses a hold id that could address another field', async () => {
        for (const id of ['a.b', '$x', '', 'a b']) {
          await expect(counter.reserve('u1', 'files', 1, 10, { id, at: T0, by: BY })).rejects.toThrow(RangeError);
        }
        expect(await counter.get('u1')).toEqual(ZERO_USAGE);
      });

      it('lets exactly max of 20 parallel held reservations through, and each hold holds its own', async () => {
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) => counter.reserve('u1', 'files', 1, 5, { id: `h${i}`, at: T0, by: BY })),
        );
        expect(results.filter(Boolean)).toHaveLength(5);
        const holds = await counter.staleHolds(later(1));
        expect(holds.map((h) => h.holdId).sort()).toEqual(
          results.flatMap((ok, i) => (ok ? [`h${i}`] : [])).sort(),
        );
        for (const hold of holds) expect(hold.amounts).toEqual({ files: 1 });
        await Promise.all(holds.map((h) => counter.releaseHold('u1', h.holdId)));
        expect(await counter.get('u1')).toEqual(ZERO_USAGE);
      });

      it('opens at most maxOpen holds per user, and settling or releasing one makes room', async () => {
        const open = (userId: string, id: string) => counter.openHold(userId, { id, at: T0, by: BY }, 2);
        expect(await open('u1', 'h1')).toBe(true);
        expect(await open('u1', 'h2')).toBe(true);
        expect(await open('u1', 'h3')).toBe(false);
        expect(await open('u2', 'h1')).toBe(true);
        expect(await counter.reserve('u1', 'files', 1, 10, { id: 'h1', at: later(5), by: BY })).toBe(true);
        // An opened hold holds nothing until a reservation adds to it, and is swept like any other.
        expect(await counter.staleHolds(later(10))).toEqual(
          expect.arrayContaining([
            { userId: 'u1', holdId: 'h1', amounts: { files: 1 }, at: later(5), by: BY, task: null, fixed: false, blobs: [] },
            { userId: 'u1', holdId: 'h2', amounts: {}, at: T0, by: BY, task: null, fixed: false, blobs: [] },
            { userId: 'u2', holdId: 'h1', amounts: {}, at: T0, by: BY, task: null, fixed: false, blobs: [] },
          ]),
        );
        expect(await counter.settleHold('u1', 'h1')).toEqual({ files: 1 });
        expect(await open('u1', 'h3')).toBe(true);
        expect(await open('u1', 'h4')).toBe(false);
        await counter.releaseHold('u1', 'h2');
        expect(await open('u1', 'h4')).toBe(true);
        expect(await open('u1', 'h5')).toBe(false);
        expect(await counter.get('u1')).toEqual(usage({ files: 1 }));
      });

      it('opens a hold with a first reservation in one step, or changes nothing', async () => {
        const files = (max: number) => ({ kind: 'files' as const, amount: 1, max });
        // No counters yet: refused, so the caller's two steps create them.
        expect(await counter.openHoldReserving('u1', { id: 'h0', at: T0, by: BY }, 2, files(5))).toBe(false);
        expect(await counter.openHold('u1', { id: 'h0', at: T0, by: BY }, 2)).toBe(true);
        expect(await counter.openHoldReserving('u1', { id: 'h1', at: T0, by: BY }, 2, files(5))).toBe(true);
        expect(await counter.get('u1')).toEqual(usage({ files: 1 }));
        // Every slot taken, an id already held, or the reservation not fitting: nothing changes.
        expect(await counter.openHoldReserving('u1', { id: 'h2', at: T0, by: BY }, 2, files(5))).toBe(false);
        await counter.releaseHold('u1', 'h0');
        expect(await counter.openHoldReserving('u1', { id: 'h1', at: T0, by: BY }, 2, files(5))).toBe(false);
        expect(await counter.openHoldReserving('u1', { id: 'h2', at: T0, by: BY }, 2, files(1))).toBe(false);
        expect(await counter.get('u1')).toEqual(usage({ files: 1 }));
        expect(await counter.staleHolds(later(1))).toEqual([{ userId: 'u1', holdId: 'h1', amounts: { files: 1 }, at: T0, by: BY, task: null, fixed: false, blobs: [] }]);
        // What it reserved belongs to the hold: releasing it gives the file back.
        await counter.releaseHold('u1', 'h1');
        expect(await counter.get('u1')).toEqual(ZERO_USAGE);
        expect(await counter.openHoldReserving('u1', { id: 'h2', at: T0, by: BY }, 2, files(1))).toBe(true);
      });

      it('lets exactly as many holds open with a reservation as there is room for, under concurrency', async () => {
        await counter.reserve('u1', 'files', 0, 10);
        await counter.openHold('u1', { id: 'warm', at: T0, by: BY }, 100);
        await counter.releaseHold('u1', 'warm');
        const results = await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            counter.openHoldReserving('u1', { id: `c${i}`, at: T0, by: BY }, 100, { kind: 'files', amount: 1, max: 7 }),
          ),
        );
        expect(results.filter(Boolean)).toHaveLength(7);
        expect((await counter.get('u1')).files).toBe(7);
        expect(await counter.staleHolds(later(1))).toHaveLength(7);
      });

      it('opens a hold once: an id already held is refused and counted once', async () => {
        expect(await counter.openHold('u1', { id: HOLD, at: T0, by: BY }, 5)).toBe(true);
        expect(await counter.openHold('u1', { id: HOLD, at: T0, by: BY }, 5)).toBe(false);
        await counter.reserve('u1', 'files', 1, 10, { id: 'plain', at: T0, by: BY });
        expect(await counter.openHold('u1', { id: 'plain', at: T0, by: BY }, 5)).toBe(false);
        await counter.settleHold('u1', HOLD);
        await counter.settleHold('u1', 'plain');
        for (let i = 0; i < 5; i++) expect(await counter.openHold('u1', { id: `n${i}`, at: T0, by: BY }, 5)).toBe(true);
        expect(await counter.openHold('u1', { id: 'n5', at: T0, by: BY }, 5)).toBe(false);
      });

      it('does not count holds that reserve creates by itself', async () => {
        await counter.reserve('u1', 'files', 1, 10, { id: 'plain', at: T0, by: BY });
        expect(await counter.openHold('u1', { id: 'o1', at: T0, by: BY }, 1)).toBe(true);
        expect(await counter.openHold('u1', { id: 'o2', at: T0, by: BY }, 1)).toBe(false);
        await counter.releaseHold('u1', 'plain');
        expect(await counter.openHold('u1', { id: 'o2', at: T0, by: BY }, 1)).toBe(false);
        await counter.releaseHold('u1', 'o1');
        expect(await counter.openHold('u1', { id: 'o2', at: T0, by: BY }, 1)).toBe(true);
        expect(await counter.get('u1')).toEqual(ZERO_USAGE);
      });

      it('lets exactly maxOpen of 20 parallel opens through', async () => {
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) => counter.openHold('u1', { id: `p${i}`, at: T0, by: BY }, 3)),
        );
        expect(results.filter(Boolean)).toHaveLength(3);
        expect(await counter.staleHolds(later(1))).toHaveLength(3);
      });

      it('forgets opened holds on set and remove', async () => {
        await counter.openHold('u1', { id: 'a', at: T0, by: BY }, 1);
        await counter.openHold('u2', { id: 'b', at: T0, by: BY }, 1);
        await counter.set('u1', usage({ files: 3 }));
        await counter.remove('u2');
        expect(await counter.openHold('u1', { id: 'c', at: T0, by: BY }, 1)).toBe(true);
        expect(await counter.openHold('u2', { id: 'd', at: T0, by: BY }, 1)).toBe(true);
        expect(await counter.get('u1')).toEqual(usage({ files: 3 }));
      });

      it('stays exact when a hold is released while reservations and settles of others run', async () => {
        await counter.reserve('u1', 'storage', 100, 10_000, { id: 'gone', at: T0, by: BY });
        await Promise.all([
          counter.releaseHold('u1', 'gone'),
          ...Array.from({ length: 10 }, (_, i) =>
            counter.reserve('u1', 'storage', 10, 10_000, { id: `k${i}`, at: T0, by: BY }),
          ),
          ...Array.from({ length: 10 }, () => counter.reserve('u1', 'storage', 1, 10_000)),
        ]);
        await Promise.all(Array.from({ length: 10 }, (_, i) => counter.settleHold('u1', `k${i}`)));
        expect((await counter.get('u1')).storage).toBe(110);
        expect(await counter.staleHolds(later(1))).toEqual([]);
      });

      it('moves what an opened hold holds into another hold in one step, counters unchanged, its slot freed', async () => {
        await counter.reserve('u1', 'files', 1, 10, { id: 'upload', at: T0, by: BY });
        expect(await counter.openHold('u1', { id: 'append', at: T0, by: BY }, 1)).toBe(true);
        expect(await counter.reserve('u1', 'storage', 300, 1000, { id: 'append', at: T0, by: BY })).toBe(true);
        // Not what the hold holds, or no target: nothing changes.
        expect(await counter.moveHeld('u1', 'append', { id: 'upload', at: later(5) }, 'storage', 299)).toBe(false);
        expect(await counter.moveHeld('u1', 'append', { id: 'missing', at: later(5) }, 'storage', 300)).toBe(false);
        expect(await counter.moveHeld('u1', 'append', { id: 'upload', at: later(5) }, 'storage', 300)).toBe(true);
        expect(await counter.moveHeld('u1', 'append', { id: 'upload', at: later(5) }, 'storage', 300)).toBe(false);
        expect(await counter.get('u1')).toEqual(usage({ files: 1, storage: 300 }));
        const held = await counter.staleHolds(later(10));
        expect(held).toEqual([{ userId: 'u1', holdId: 'upload', amounts: { files: 1, storage: 300 }, at: later(5), by: BY, task: null, fixed: false, blobs: [] }]);
        expect(await counter.openHold('u1', { id: 'next', at: T0, by: BY }, 1)).toBe(true);
        await counter.releaseHold('u1', 'upload');
        expect(await counter.get('u1')).toEqual(ZERO_USAGE);
      });

      it('moves an empty opened hold (an append of no bytes)', async () => {
        await counter.reserve('u1', 'files', 1, 10, { id: 'upload', at: T0, by: BY });
        await counter.openHold('u1', { id: 'append', at: T0, by: BY }, 1);
        expect(await counter.moveHeld('u1', 'append', { id: 'upload', at: T0 }, 'storage', 0)).toBe(true);
        expect(await counter.settleHold('u1', 'upload')).toEqual({ files: 1 });
      });

      it('gives back part of a hold, from the hold and the counter in one step, never more than held', async () => {
        await counter.reserve('u1', 'files', 1, 10, { id: 'upload', at: T0, by: BY });
        await counter.reserve('u1', 'storage', 300, 1000, { id: 'upload', at: T0, by: BY });
        await counter.reserve('u1', 'storage', 50, 1000);
        expect(await counter.releaseHeld('u1', 'upload', 'storage', 301)).toBe(false);
        expect(await counter.releaseHeld('u1', 'missing', 'storage', 1)).toBe(false);
        expect(await counter.releaseHeld('u2', 'upload', 'storage', 1)).toBe(false);
        expect(await counter.get('u1')).toEqual(usage({ files: 1, storage: 350 }));
        expect(await counter.releaseHeld('u1', 'upload', 'storage', 120)).toBe(true);
        expect(await counter.get('u1')).toEqual(usage({ files: 1, storage: 230 }));
        expect(await counter.settleHold('u1', 'upload')).toEqual({ files: 1, storage: 180 });
      });

      it('lets concurrent partial releases of one hold take no more than it holds', async () => {
        await counter.reserve('u1', 'storage', 100, 1000, { id: 'upload', at: T0, by: BY });
        const results = await Promise.all(
          Array.from({ length: 5 }, () => counter.releaseHeld('u1', 'upload', 'storage', 30)),
        );
        expect(results.filter(Boolean)).toHaveLength(3);
        expect(await counter.get('u1')).toEqual(usage({ storage: 10 }));
      });
    });

    describe('the instances holds name', () => {
      const sorted = (list: string[]) => [...list].sort();

      it('names every instance that opened or grew a hold, in the same step, until forgotten', async () => {
        expect(await counter.writers()).toEqual([]);
        await counter.reserve('u1', 'files', 1, 10);
        expect(await counter.writers()).toEqual([]);
        await counter.openHold('u1', { id: 'h1', at: T0, by: 'a' }, 5);
        await counter.openHoldReserving('u2', { id: 'h2', at: T0, by: 'b' }, 5, { kind: 'files', amount: 1, max: 5 });
        await counter.reserve('u2', 'storage', 10, 100, { id: 'h3', at: T0, by: 'c' });
        await counter.reserve('u2', 'storage', 10, 100, { id: 'h2', at: T0, by: 'b' });
        expect(sorted(await counter.writers())).toEqual(['a', 'b', 'c']);
        // A refused change names nobody.
        expect(await counter.reserve('u3', 'files', 2, 1, { id: 'h4', at: T0, by: 'd' })).toBe(false);
        expect(await counter.openHold('u1', { id: 'h1', at: T0, by: 'e' }, 5)).toBe(false);
        expect(sorted(await counter.writers())).toEqual(['a', 'b', 'c']);
        // Settling or releasing leaves the name: only the sweep that finished an instance's work forgets it.
        await counter.settleHold('u1', 'h1');
        expect(sorted(await counter.writers())).toEqual(['a', 'b', 'c']);
        await counter.forgetWriters('u1', ['a', 'z']);
        await counter.forgetWriters('u2', ['c']);
        expect(sorted(await counter.writers())).toEqual(['b']);
        await counter.remove('u2');
        expect(await counter.writers()).toEqual([]);
      });

      it("lists each user's holds by the instances asked about, and which of them the user's counters name", async () => {
        await counter.openHold('u1', { id: 'h1', at: T0, by: 'a' }, 5);
        await counter.reserve('u1', 'files', 1, 10, { id: 'h1', at: later(5), by: 'a' });
        await counter.reserve('u1', 'files', 1, 10, { id: 'h2', at: T0, by: 'b' });
        await counter.reserve('u2', 'files', 1, 10, { id: 'h3', at: T0, by: 'a' });
        await counter.settleHold('u2', 'h3');
        await counter.reserve('u3', 'files', 1, 10, { id: 'h4', at: T0, by: 'c' });
        const work = (await counter.workOf(['a', 'z'])).sort((x, y) => x.userId.localeCompare(y.userId));
        expect(work).toEqual([
          {
            userId: 'u1',
            writers: ['a'],
            holds: [{ userId: 'u1', holdId: 'h1', amounts: { files: 1 }, at: later(5), by: 'a', task: null, fixed: false, blobs: [] }],
          },
          { userId: 'u2', writers: ['a'], holds: [] },
        ]);
        expect(await counter.workOf([])).toEqual([]);
        // The hold names the instance that grew it last.
        await counter.reserve('u1', 'files', 1, 10, { id: 'h2', at: T0, by: 'a' });
        expect((await counter.workOf(['b']))[0]!.holds).toEqual([]);
      });

      it('settles and releases a hold only while it names the instance asked for', async () => {
        await counter.reserve('u1', 'files', 1, 10, { id: 'h1', at: T0, by: 'a' });
        await counter.openHold('u1', { id: 'h2', at: T0, by: 'a' }, 1);
        expect(await counter.releaseHold('u1', 'h1', { by: 'b' })).toBe(false);
        expect(await counter.settleHold('u1', 'h1', { by: 'b' })).toBeNull();
        expect(await counter.settleHold('u1', 'h2', { by: 'b' })).toBeNull();
        expect(await counter.get('u1')).toEqual(usage({ files: 1 }));
        expect(await counter.releaseHold('u1', 'h1', { by: 'a' })).toBe(true);
        expect(await counter.releaseHold('u1', 'h1', { by: 'a' })).toBe(false);
        expect(await counter.get('u1')).toEqual(ZERO_USAGE);
        expect(await counter.settleHold('u1', 'h2', { by: 'a' })).toEqual({});
        // Its slot came back.
        expect(await counter.openHold('u1', { id: 'h3', at: T0, by: 'a' }, 1)).toBe(true);
      });

      it('hands a hold to another instance, or to no instance, in one step', async () => {
        await counter.reserve('u1', 'files', 1, 10, { id: 'h1', at: T0, by: 'a' });
        expect(await counter.claimHold('u1', 'missing', 'b')).toBe(false);
        expect(await counter.claimHold('u2', 'h1', 'b')).toBe(false);
        expect(await counter.claimHold('u1', 'h1', 'b')).toBe(true);
        expect(sorted(await counter.writers())).toEqual(['a', 'b']);
        expect(await counter.releaseHold('u1', 'h1', { by: 'a' })).toBe(false);
        expect(await counter.disownHold('u1', 'h1', 'a')).toBe(false);
        expect(await counter.disownHold('u1', 'h1', 'b')).toBe(true);
        expect(await counter.staleHolds(later(1))).toEqual([
          { userId: 'u1', holdId: 'h1', amounts: { files: 1 }, at: T0, by: null, task: null, fixed: false, blobs: [] },
        ]);
        expect((await counter.workOf(['a', 'b'])).flatMap((w) => w.holds)).toEqual([]);
        expect(await counter.get('u1')).toEqual(usage({ files: 1 }));
      });

      it('records the blobs a hold may leave behind, in the update that opens or grows it', async () => {
        await counter.openHold('u1', { id: 'h1', at: T0, by: 'a', blob: 'k1' }, 5);
        await counter.openHoldReserving('u1', { id: 'h2', at: T0, by: 'a', blob: 'k5' }, 5, {
          kind: 'files',
          amount: 1,
          max: 5,
        });
        await counter.reserve('u1', 'storage', 10, 100, { id: 'h1', at: T0, by: 'a', blob: 'k1' });
        expect(await counter.claimHold('u1', 'h1', 'b', ['k2', 'k3'])).toBe(true);
        expect(await counter.claimHold('u1', 'missing', 'b', ['k4'])).toBe(false);
        const holds = await counter.holdsOf('u1');
        const blobsOf = (id: string) => holds.find((hold) => hold.holdId === id)!.blobs.sort();
        expect(blobsOf('h1')).toEqual(['k1', 'k2', 'k3']);
        expect(blobsOf('h2')).toEqual(['k5']);
        expect(holds.find((hold) => hold.holdId === 'h1')!.by).toBe('b');
        await counter.releaseHold('u1', 'h1');
        expect((await counter.holdsOf('u1')).map((hold) => hold.holdId)).toEqual(['h2']);
      });

      it('lets one of a release and a claim racing over one hold win', async () => {
        for (let i = 0; i < 10; i++) {
          await counter.reserve('u1', 'files', 1, 100, { id: `h${i}`, at: T0, by: 'gone' });
        }
        const raced = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            Promise.all([counter.releaseHold('u1', `h${i}`, { by: 'gone' }), counter.claimHold('u1', `h${i}`, 'live')]),
          ),
        );
        const claimedAfter = (await counter.workOf(['live']))[0]?.holds.length ?? 0;
        const released = raced.filter(([wasReleased]) => wasReleased).length;
        expect(released + claimedAfter).toBe(10);
        expect((await counter.get('u1')).files).toBe(10 - released);
      });
    });

    describe('task holds', () => {
      const task = { kind: 'tree' as const, folderId: 'folder-1' };

      it('begins a task with an empty hold that names its instance and takes no upload slot', async () => {
        await counter.beginTask('u1', { id: 't1', at: T0, by: 'a' }, task);
        await counter.beginTask('u1', { id: 't1', at: later(5), by: 'b' }, { kind: 'files' });
        expect(await counter.holdsOf('u1')).toEqual([
          { userId: 'u1', holdId: 't1', amounts: {}, at: T0, by: 'a', task, fixed: false, blobs: [] },
        ]);
        expect(await counter.writers()).toEqual(['a']);
        expect(await counter.get('u1')).toEqual(ZERO_USAGE);
        expect(await counter.openHold('u1', { id: 'upload', at: T0, by: 'a' }, 1)).toBe(true);
        expect(await counter.holdsOf('u2')).toEqual([]);
      });

      it("fixes a task's amounts once, and releasing the hold gives back exactly those", async () => {
        await counter.set('u1', usage({ files: 5, storage: 500, shares: 2 }));
        await counter.beginTask('u1', { id: 't1', at: T0, by: 'a' }, { kind: 'files' });
        expect(await counter.fixHeld('u1', 't1', { files: 2, storage: 300, shares: 1 }, ['k1', 'k2'])).toBe(true);
        expect(await counter.fixHeld('u1', 't1', { files: 5 }, ['k3'])).toBe(false);
        expect(await counter.fixHeld('u1', 'missing', { files: 1 }, [])).toBe(false);
        expect(await counter.get('u1')).toEqual(usage({ files: 5, storage: 500, shares: 2 }));
        expect(await counter.holdsOf('u1')).toEqual([
          {
            userId: 'u1',
            holdId: 't1',
            amounts: { files: 2, storage: 300, shares: 1 },
            at: T0,
            by: 'a',
            task: { kind: 'files' },
            fixed: true,
            blobs: ['k1', 'k2'],
          },
        ]);
        expect(await counter.trimHeld('u1', 't1', 'shares', 2)).toBe(false);
        expect(await counter.trimHeld('u1', 't1', 'shares', 1)).toBe(true);
        expect(await counter.get('u1')).toEqual(usage({ files: 5, storage: 500, shares: 2 }));
        expect(await counter.releaseHold('u1', 't1', { by: 'a' })).toBe(true);
        expect(await counter.get('u1')).toEqual(usage({ files: 3, storage: 200, shares: 2 }));
        expect(await counter.holdsOf('u1')).toEqual([]);
      });

      it('opens an upload hold that names its task; fixing it replaces what it held, counters and slot untouched until its release', async () => {
        await counter.set('u1', usage({ files: 1, storage: 100 }));
        const replace = { kind: 'replace' as const, fileId: 'f1', blobKey: 'old', size: 100 };
        expect(await counter.openHold('u1', { id: 'r1', at: T0, by: 'a', blob: 'new', task: replace }, 1)).toBe(true);
        expect(await counter.reserve('u1', 'storage', 40, 1000, { id: 'r1', at: T0, by: 'a' })).toBe(true);
        expect(await counter.holdsOf('u1')).toEqual([
          { userId: 'u1', holdId: 'r1', amounts: { storage: 40 }, at: T0, by: 'a', task: replace, fixed: false, blobs: ['new'] },
        ]);
        expect(await counter.fixHeld('u1', 'r1', { storage: 100 }, ['old'])).toBe(true);
        expect(await counter.get('u1')).toEqual(usage({ files: 1, storage: 140 }));
        expect(await counter.holdsOf('u1')).toEqual([
          { userId: 'u1', holdId: 'r1', amounts: { storage: 100 }, at: T0, by: 'a', task: replace, fixed: true, blobs: ['old'] },
        ]);
        expect(await counter.openHold('u1', { id: 'other', at: T0, by: 'a' }, 1)).toBe(false);
        expect(await counter.releaseHold('u1', 'r1', { by: 'a' })).toBe(true);
        expect(await counter.get('u1')).toEqual(usage({ files: 1, storage: 40 }));
        expect(await counter.openHold('u1', { id: 'other', at: T0, by: 'a' }, 1)).toBe(true);
      });

      it('fixes a task once when two instances race to', async () => {
        await counter.beginTask('u1', { id: 't1', at: T0, by: 'a' }, { kind: 'files' });
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => counter.fixHeld('u1', 't1', { files: i + 1 }, [`k${i}`])),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        const [hold] = await counter.holdsOf('u1');
        expect(hold!.blobs).toEqual([`k${hold!.amounts.files! - 1}`]);
      });
    });

    describe("small records' creates and deletes", () => {
      const create = { kind: 'create' as const, record: 'paste' as const };

      it('writes the task of a create with the count that takes it, in one step, and settles only that task', async () => {
        expect(await counter.reserve('u1', 'pastes', 1, 1, { id: 'p1', at: T0, by: 'a', task: create })).toBe(true);
        expect(await counter.reserve('u1', 'storage', 10, 100, { id: 'p1', at: T0, by: 'a', task: create })).toBe(true);
        expect(await counter.reserve('u1', 'pastes', 1, 1, { id: 'p2', at: T0, by: 'a', task: create })).toBe(false);
        expect(await counter.holdsOf('u1')).toEqual([
          { userId: 'u1', holdId: 'p1', amounts: { pastes: 1, storage: 10 }, at: T0, by: 'a', task: create, fixed: false, blobs: [] },
        ]);
        expect(await counter.writers()).toEqual(['a']);
        expect(await counter.settleHold('u1', 'p1', { by: 'a', kind: 'drop' })).toBeNull();
        expect(await counter.releaseHold('u1', 'p1', { by: 'a', kind: 'drop' })).toBe(false);
        expect(await counter.settleHold('u1', 'p1', { by: 'a', kind: 'create' })).toEqual({ pastes: 1, storage: 10 });
        expect(await counter.get('u1')).toEqual(usage({ pastes: 1, storage: 10 }));
        expect(await counter.holdsOf('u1')).toEqual([]);
      });

      it("begins a record's delete holding its fixed amounts, replacing the record's create, refusing a second delete", async () => {
        await counter.reserve('u1', 'pastes', 1, 5, { id: 'p1', at: T0, by: 'a', task: create });
        await counter.reserve('u1', 'storage', 10, 100, { id: 'p1', at: T0, by: 'a', task: create });
        expect(await counter.beginDrop('u1', { id: 'p1', at: later(1), by: 'b' }, 'paste', { pastes: 1, storage: 10, shares: 0 })).toBe(true);
        expect(await counter.beginDrop('u1', { id: 'p1', at: later(2), by: 'c' }, 'paste', { pastes: 1 })).toBe(false);
        const drop = { kind: 'drop' as const, record: 'paste' as const };
        expect(await counter.holdsOf('u1')).toEqual([
          { userId: 'u1', holdId: 'p1', amounts: { pastes: 1, storage: 10, shares: 0 }, at: later(1), by: 'b', task: drop, fixed: true, blobs: [] },
        ]);
        expect((await counter.writers()).sort()).toEqual(['a', 'b']);
        // The create's own settle no longer finds its hold; the delete's release gives back what it holds.
        expect(await counter.settleHold('u1', 'p1', { by: 'a', kind: 'create' })).toBeNull();
        expect(await counter.releaseHold('u1', 'p1', { by: 'b', kind: 'drop' })).toBe(true);
        expect(await counter.get('u1')).toEqual(ZERO_USAGE);
        expect(await counter.holdsOf('u1')).toEqual([]);
      });

      it("begins a record's delete not fixed, its shares' count added once, by the one fix its claimed shares take", async () => {
        await counter.set('u1', usage({ pastes: 1, storage: 10, shares: 2 }));
        expect(await counter.beginDrop('u1', { id: 'p1', at: later(1), by: 'b' }, 'paste', { pastes: 1, storage: 10 }, true)).toBe(true);
        const drop = { kind: 'drop' as const, record: 'paste' as const, claims: true };
        expect(await counter.holdsOf('u1')).toEqual([
          { userId: 'u1', holdId: 'p1', amounts: { pastes: 1, storage: 10 }, at: later(1), by: 'b', task: drop, fixed: false, blobs: [] },
        ]);
        // A second delete is refused whether or not the first is fixed.
        expect(await counter.beginDrop('u1', { id: 'p1', at: later(2), by: 'c' }, 'paste', { pastes: 1 }, true)).toBe(false);
        expect(await counter.fixHeld('u1', 'p1', { shares: 1 }, [], ['p1'])).toBe(true);
        expect(await counter.fixHeld('u1', 'p1', { shares: 1 }, [], [])).toBe(false);
        expect((await counter.holdsOf('u1'))[0]).toMatchObject({ amounts: { pastes: 1, storage: 10, shares: 1 }, fixed: true });
        expect(await counter.trimHeld('u1', 'p1', 'pastes', 1)).toBe(true);
        expect(await counter.trimHeld('u1', 'p1', 'pastes', 1)).toBe(false);
        expect(await counter.releaseHold('u1', 'p1', { by: 'b', kind: 'drop' })).toBe(true);
        expect(await counter.get('u1')).toEqual(usage({ pastes: 1, storage: 0, shares: 1 }));
      });

      it("begins a record's delete for a user without counters yet, and only once among racing ones", async () => {
        const results = await Promise.all(
          ['a', 'b', 'c'].map((by) => counter.beginDrop('u1', { id: 's1', at: T0, by }, 'share', { shares: 1 })),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await counter.get('u1')).toEqual(ZERO_USAGE);
        expect(await counter.releaseHold('u1', 's1', { kind: 'drop' })).toBe(true);
        expect(await counter.get('u1')).toEqual(ZERO_USAGE);
      });

      it("forgets the creates', deletes' and uploads' holds a removal names when it fixes its amounts, and nothing else", async () => {
        await counter.set('u1', usage({ folders: 1, shares: 1, files: 1 }));
        await counter.reserve('u1', 'folders', 1, 9, { id: 'f1', at: T0, by: 'a', task: { kind: 'create', record: 'folder' } });
        await counter.reserve('u1', 'shares', 1, 9, { id: 's1', at: T0, by: 'a', task: { kind: 'create', record: 'share' } });
        await counter.beginDrop('u1', { id: 's2', at: T0, by: 'a' }, 'share', { shares: 1 });
        await counter.openHold('u1', { id: 'up', at: T0, by: 'a' }, 5);
        await counter.reserve('u1', 'files', 1, 9, { id: 'up', at: T0, by: 'a' });
        await counter.beginTask('u1', { id: 't1', at: T0, by: 'b' }, { kind: 'tree', folderId: 'f0' });
        await counter.beginTask('u1', { id: 'tf', at: T0, by: 'b' }, { kind: 'files' });
        const forget = ['f1', 's1', 's2', 'up', 't1', 'tf', 'unknown'];
        expect(await counter.fixHeld('u1', 't1', { folders: 2, shares: 3 }, [], forget)).toBe(true);
        expect((await counter.holdsOf('u1')).map((h) => h.holdId).sort()).toEqual(['t1', 'tf']);
        expect(await counter.get('u1')).toEqual(usage({ folders: 2, shares: 2, files: 2 }));
        // The upload's slot came back with its hold: one opened hold fits where one is allowed.
        expect(await counter.openHold('u1', { id: 'probe', at: T0, by: 'a' }, 1)).toBe(true);
        expect(await counter.releaseHold('u1', 'probe')).toBe(true);
        // Many names at once: the same, for an opened upload hold and one a reserve made.
        await counter.reserve('u1', 'folders', 1, 9, { id: 'f2', at: T0, by: 'a', task: { kind: 'create', record: 'folder' } });
        await counter.openHold('u1', { id: 'up2', at: T0, by: 'a' }, 5);
        await counter.reserve('u1', 'files', 1, 9, { id: 'up3', at: T0, by: 'a' });
        await counter.openHold('u1', { id: 'kept', at: T0, by: 'a' }, 5);
        await counter.beginTask('u1', { id: 't2', at: T0, by: 'b' }, { kind: 'tree', folderId: 'f0' });
        await counter.beginDrop('u1', { id: 's3', at: T0, by: 'a' }, 'share', { shares: 1 });
        const many = [...Array.from({ length: 100 }, (_, i) => `x${i}`), 'f2', 's3', 'up2', 'up3', 'tf'];
        expect(await counter.fixHeld('u1', 't2', { folders: 1 }, [], many)).toBe(true);
        expect((await counter.holdsOf('u1')).map((h) => h.holdId).sort()).toEqual(['kept', 't1', 't2', 'tf']);
        // Only `kept` is an open slot now.
        expect(await counter.openHold('u1', { id: 'probe', at: T0, by: 'a' }, 2)).toBe(true);
        expect(await counter.openHold('u1', { id: 'probe2', at: T0, by: 'a' }, 2)).toBe(false);
      });

      it('remembers the last 16 holds released with the mark given back, and only those', async () => {
        await counter.set('u1', usage({ folders: 0 }));
        for (let i = 0; i < 20; i++) {
          await counter.reserve('u1', 'folders', 1, 99, { id: `c${i}`, at: T0, by: 'a', task: { kind: 'create', record: 'folder' } });
        }
        await counter.reserve('u1', 'folders', 1, 99, { id: 'plain', at: T0, by: 'a' });
        expect(await counter.releaseHold('u1', 'plain')).toBe(true);
        expect(await counter.wasGivenBack('u1', 'plain')).toBe(false);
        // Only while it names its instance: a miss marks nothing.
        expect(await counter.releaseHold('u1', 'c0', { by: 'other' }, 'given back')).toBe(false);
        expect(await counter.wasGivenBack('u1', 'c0')).toBe(false);
        for (let i = 0; i < 20; i++) expect(await counter.releaseHold('u1', `c${i}`, { by: 'a', kind: 'create' }, 'given back')).toBe(true);
        expect(await counter.get('u1')).toEqual(usage({ folders: 0 }));
        for (let i = 0; i < 20; i++) expect(await counter.wasGivenBack('u1', `c${i}`)).toBe(i >= 4);
        expect(await counter.wasGivenBack('nobody', 'c19')).toBe(false);
      });

      it('opens a task holding amounts from the start, counters untouched; its release gives them back', async () => {
        await counter.set('u1', usage({ storage: 100 }));
        await counter.beginTask('u1', { id: 'rw', at: T0, by: 'a' }, { kind: 'rewrite', pasteId: 'p1', grows: false }, { storage: 40 });
        expect(await counter.get('u1')).toEqual(usage({ storage: 100 }));
        expect(await counter.holdsOf('u1')).toMatchObject([
          { holdId: 'rw', by: 'a', amounts: { storage: 40 }, fixed: true, task: { kind: 'rewrite', pasteId: 'p1', grows: false } },
        ]);
        expect(await counter.releaseHold('u1', 'rw', { by: 'a', kind: 'rewrite' })).toBe(true);
        expect(await counter.get('u1')).toEqual(usage({ storage: 60 }));
      });
    });
  });
}
