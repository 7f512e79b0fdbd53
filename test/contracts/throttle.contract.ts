import { beforeEach, describe, expect, it } from 'vitest';
import type { Throttle, ThrottleKey, ThrottleRule } from '../../src/application/ports/index.js';

const MINUTE = 60_000;
const guesses: ThrottleRule = { name: 'contract-guesses', limit: 3, windowMs: 10 * MINUTE };
const lookups: ThrottleRule = { name: 'contract-lookups', limit: 2, windowMs: 5 * MINUTE };
const key = (rule: ThrottleRule, id: string): ThrottleKey => ({ rule, id });

/** Every Throttle adapter runs this. `make` must return an adapter over empty storage. */
export function throttleContract(name: string, make: () => Promise<Throttle>): void {
  describe(name, () => {
    let throttle: Throttle;
    beforeEach(async () => {
      throttle = await make();
    });

    it('counts up to the limit without refusing, then locks until the window ends', async () => {
      const a = key(guesses, 'a');
      expect(await throttle.lockedFor([a])).toBe(0);
      for (let i = 0; i < guesses.limit; i += 1) {
        expect(await throttle.lockedFor([a])).toBe(0);
        expect(await throttle.count([a])).toBe(0);
      }
      const wait = await throttle.lockedFor([a]);
      expect(wait).toBeGreaterThan(guesses.windowMs - MINUTE);
      expect(wait).toBeLessThanOrEqual(guesses.windowMs);
      const over = await throttle.count([a]);
      expect(over).toBeGreaterThan(0);
      expect(over).toBeLessThanOrEqual(guesses.windowMs);
    });

    it('keeps ids and rules apart, and is locked when any one key is', async () => {
      for (let i = 0; i < guesses.limit; i += 1) await throttle.count([key(guesses, 'a')]);
      expect(await throttle.lockedFor([key(guesses, 'b')])).toBe(0);
      expect(await throttle.lockedFor([key(lookups, 'a')])).toBe(0);
      expect(await throttle.lockedFor([key(guesses, 'b'), key(guesses, 'a')])).toBeGreaterThan(0);
    });

    it('uncount takes one back, and never goes below zero', async () => {
      const a = key(guesses, 'a');
      for (let i = 0; i < guesses.limit; i += 1) await throttle.count([a]);
      await throttle.uncount([a]);
      expect(await throttle.lockedFor([a])).toBe(0);
      const fresh = key(lookups, 'fresh');
      await throttle.uncount([fresh]);
      await throttle.uncount([fresh]);
      for (let i = 0; i < lookups.limit; i += 1) expect(await throttle.count([fresh])).toBe(0);
      expect(await throttle.lockedFor([fresh])).toBeGreaterThan(0);
    });

    it('forgive deletes a key and leaves every other key as it was', async () => {
      const pair = key(guesses, 'pair');
      const other = key(guesses, 'other');
      for (let i = 0; i < guesses.limit; i += 1) await throttle.count([pair, other]);
      await throttle.forgive(pair);
      expect(await throttle.lockedFor([pair])).toBe(0);
      expect(await throttle.lockedFor([other])).toBeGreaterThan(0);
      // A full limit of counts again, and forgiving a key with no count is harmless.
      for (let i = 0; i < guesses.limit; i += 1) expect(await throttle.count([pair])).toBe(0);
      expect(await throttle.lockedFor([pair])).toBeGreaterThan(0);
      await throttle.forgive(key(lookups, 'never-counted'));
      expect(await throttle.tally(key(lookups, 'never-counted'))).toMatchObject({ count: 1 });
    });

    it('tally counts like count and tells the count and the rest of the window, past the limit too', async () => {
      const a = key(lookups, 'a');
      const first = await throttle.tally(a);
      expect(first.count).toBe(1);
      expect(first.resetIn).toBeGreaterThan(lookups.windowMs - MINUTE);
      expect(first.resetIn).toBeLessThanOrEqual(lookups.windowMs);
      expect(await throttle.count([a])).toBe(0);
      expect(await throttle.lockedFor([a])).toBeGreaterThan(0);
      const past = await throttle.tally(a);
      expect(past.count).toBe(lookups.limit + 1);
      expect(past.resetIn).toBeLessThanOrEqual(first.resetIn);
      await throttle.uncount([a]);
      expect((await throttle.tally(a)).count).toBe(lookups.limit + 1);
    });

    it('lets exactly the limit see a count within it when tallies race, and loses none', async () => {
      const a = key(guesses, 'tally-race');
      const tallies = await Promise.all(Array.from({ length: 12 }, () => throttle.tally(a)));
      expect(tallies.filter(({ count }) => count <= guesses.limit)).toHaveLength(guesses.limit);
      expect((await throttle.tally(a)).count).toBe(13);
    });

    it('lets exactly the limit through when counts race', async () => {
      const a = key(guesses, 'race');
      const results = await Promise.all(Array.from({ length: 12 }, () => throttle.count([a])));
      expect(results.filter((wait) => wait === 0)).toHaveLength(guesses.limit);
    });

    it('refuses one rule name with two sets of figures', async () => {
      await throttle.count([key(guesses, 'a')]);
      await expect(throttle.count([key({ ...guesses, limit: 99 }, 'a')])).rejects.toThrow(guesses.name);
    });
  });
}
