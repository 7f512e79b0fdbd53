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

    describe('guesses', () => {
      const targets: ThrottleRule = { name: 'contract-targets', limit: 5, windowMs: 20 * MINUTE };
      const guess = (target: string, address: string) => ({
        target: key(targets, target),
        pair: key(guesses, `${target}|${address}`),
      });

      it('counts a guess on its target and its pair, apart from other pairs and targets', async () => {
        const first = await throttle.tallyGuess(guess('t', 'a'));
        expect(first.target.count).toBe(1);
        expect(first.pair.count).toBe(1);
        expect(first.target.resetIn).toBeGreaterThan(targets.windowMs - MINUTE);
        expect(first.target.resetIn).toBeLessThanOrEqual(targets.windowMs);
        expect(first.pair.resetIn).toBeGreaterThan(guesses.windowMs - MINUTE);
        expect(first.pair.resetIn).toBeLessThanOrEqual(guesses.windowMs);
        const other = await throttle.tallyGuess(guess('t', 'b'));
        expect([other.target.count, other.pair.count]).toEqual([2, 1]);
        const again = await throttle.tallyGuess(guess('t', 'a'));
        expect([again.target.count, again.pair.count]).toEqual([3, 2]);
        const elsewhere = await throttle.tallyGuess(guess('u', 'a'));
        expect([elsewhere.target.count, elsewhere.pair.count]).toEqual([1, 1]);
      });

      it('takes a guess back off both, never below zero, and forgives a pair while the target keeps the rest', async () => {
        await throttle.tallyGuess(guess('t', 'a'));
        await throttle.tallyGuess(guess('t', 'a'));
        await throttle.tallyGuess(guess('t', 'b'));
        await throttle.uncountGuess(guess('t', 'a'));
        expect((await throttle.tallyGuess(guess('t', 'a'))).pair.count).toBe(2);
        // t: 3 counted (a twice, b once); a right guess from a forgives a and gives one back.
        await throttle.forgiveGuess(guess('t', 'a'));
        const after = await throttle.tallyGuess(guess('t', 'a'));
        expect([after.target.count, after.pair.count]).toEqual([3, 1]);
        for (let i = 0; i < 5; i += 1) await throttle.uncountGuess(guess('t', 'b'));
        await throttle.uncountGuess(guess('never', 'x'));
        await throttle.forgiveGuess(guess('never', 'y'));
        const floor = await throttle.tallyGuess(guess('t', 'b'));
        expect([floor.target.count, floor.pair.count]).toEqual([1, 1]);
        expect((await throttle.tallyGuess(guess('never', 'x'))).target.count).toBe(1);
      });

      it('lets exactly the limit of racing guesses see counts within it, on the pair and the target, and loses none', async () => {
        const tallies = await Promise.all(Array.from({ length: 12 }, () => throttle.tallyGuess(guess('race', 'a'))));
        expect(tallies.filter(({ pair }) => pair.count <= guesses.limit)).toHaveLength(guesses.limit);
        expect(tallies.filter(({ target }) => target.count <= targets.limit)).toHaveLength(targets.limit);
        expect(new Set(tallies.map(({ target }) => target.count)).size).toBe(12);
        const next = await throttle.tallyGuess(guess('race', 'a'));
        expect([next.target.count, next.pair.count]).toEqual([13, 13]);
      });

      it('opens new windows once they end, also when guesses race at the end', async () => {
        const short = { ...targets, name: 'contract-short-targets', windowMs: 1_000 };
        const shortPair = { ...guesses, name: 'contract-short-pairs', windowMs: 1_000 };
        const g = { target: key(short, 't'), pair: key(shortPair, 't|a') };
        for (let i = 0; i < 3; i += 1) await throttle.tallyGuess(g);
        await new Promise((resolve) => setTimeout(resolve, 2_100));
        const tallies = await Promise.all(Array.from({ length: 6 }, () => throttle.tallyGuess(g)));
        expect(tallies.map(({ target }) => target.count).sort()).toEqual([1, 2, 3, 4, 5, 6]);
        expect(tallies.map(({ pair }) => pair.count).sort()).toEqual([1, 2, 3, 4, 5, 6]);
      });

      it("opens a pair's new window within its target's, counting every racing guess on the target once", async () => {
        const shortPair = { ...guesses, name: 'contract-short-pair-only', windowMs: 1_000 };
        const g = { target: key(targets, 'long'), pair: key(shortPair, 'long|a') };
        for (let i = 0; i < 3; i += 1) await throttle.tallyGuess(g);
        await new Promise((resolve) => setTimeout(resolve, 2_100));
        const tallies = await Promise.all(Array.from({ length: 6 }, () => throttle.tallyGuess(g)));
        expect(tallies.map(({ pair }) => pair.count).sort()).toEqual([1, 2, 3, 4, 5, 6]);
        expect(tallies.map(({ target }) => target.count).sort()).toEqual([4, 5, 6, 7, 8, 9]);
        expect((await throttle.tallyGuess(g)).target.count).toBe(10);
      });
    });

    it('refuses one rule name with two sets of figures', async () => {
      await throttle.count([key(guesses, 'a')]);
      await expect(throttle.count([key({ ...guesses, limit: 99 }, 'a')])).rejects.toThrow(guesses.name);
    });
  });
}
