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

    it('forgive deletes a key and takes its count back off the others, never below zero', async () => {
      const pair = key(guesses, 'pair');
      const address = key(guesses, 'address');
      const other = key(lookups, 'other');
      await throttle.count([pair, address]);
      await throttle.count([pair, address]);
      await throttle.count([address]);
      await throttle.count([other]);
      await throttle.forgive(pair, [address, other]);
      // address keeps 1 of 3: two more counts reach the limit, not one.
      expect(await throttle.count([address])).toBe(0);
      expect(await throttle.lockedFor([address])).toBe(0);
      expect(await throttle.count([address])).toBe(0);
      expect(await throttle.lockedFor([address])).toBeGreaterThan(0);
      // other had 1, pair had 2: other is at zero, not below it.
      for (let i = 0; i < lookups.limit; i += 1) expect(await throttle.count([other])).toBe(0);
      expect(await throttle.lockedFor([other])).toBeGreaterThan(0);
      // pair is gone: a full limit of counts again, and forgiving it twice takes nothing more.
      await throttle.forgive(pair, [address]);
      expect(await throttle.lockedFor([address])).toBeGreaterThan(0);
      for (let i = 0; i < guesses.limit; i += 1) expect(await throttle.count([pair])).toBe(0);
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
