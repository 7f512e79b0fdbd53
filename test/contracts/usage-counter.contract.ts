import { beforeEach, describe, expect, it } from 'vitest';
import type { UsageCounter } from '../../src/application/ports/index.js';
import { ZERO_USAGE, type Usage } from '../../src/domain/index.js';

const usage = (counts: Partial<Usage>): Usage => ({ ...ZERO_USAGE, ...counts });

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
  });
}
