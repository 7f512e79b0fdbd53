import { beforeEach, describe, expect, it } from 'vitest';
import type { InstanceLeases } from '../../src/application/ports/index.js';

const T0 = new Date('2026-11-22T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const lease = (id: string, untilMs = 30_000) => ({ id, process: `host-${id}`, until: at(untilMs) });

/** Every InstanceLeases adapter runs this. `make` must return an adapter over empty storage. */
export function instanceLeasesContract(name: string, make: () => Promise<InstanceLeases>): void {
  describe(name, () => {
    let leases: InstanceLeases;
    beforeEach(async () => {
      leases = await make();
    });

    it('takes a lease once: a second take of the same id changes nothing', async () => {
      expect(await leases.take(lease('a'))).toBe(true);
      expect(await leases.take({ ...lease('a', 90_000), process: 'other' })).toBe(false);
      expect(await leases.find(['a'])).toEqual([lease('a')]);
    });

    it('finds the leases that exist among the ids asked about, run out or not', async () => {
      await leases.take(lease('a'));
      await leases.take(lease('b', -1000));
      const found = await leases.find(['a', 'b', 'c', 'a']);
      expect(found.sort((x, y) => x.id.localeCompare(y.id))).toEqual([lease('a'), lease('b', -1000)]);
      expect(await leases.find([])).toEqual([]);
    });

    it('renews a lease only while it runs', async () => {
      await leases.take(lease('a'));
      expect(await leases.renew('a', at(60_000), at(29_999))).toBe(true);
      expect((await leases.find(['a']))[0]!.until).toEqual(at(60_000));
      // Run out: others may have undone its work, so it stays run out.
      expect(await leases.renew('a', at(120_000), at(60_000))).toBe(false);
      expect(await leases.renew('a', at(120_000), at(90_000))).toBe(false);
      expect((await leases.find(['a']))[0]!.until).toEqual(at(60_000));
      expect(await leases.renew('missing', at(60_000), at(0))).toBe(false);
      expect(await leases.find(['missing'])).toEqual([]);
    });

    it('ends a lease at once, for good', async () => {
      await leases.take(lease('a'));
      await leases.end('a');
      await leases.end('a');
      await leases.end('missing');
      const [ended] = await leases.find(['a']);
      expect(ended === undefined || ended.until.getTime() <= T0.getTime()).toBe(true);
      expect(await leases.renew('a', at(60_000), at(0))).toBe(false);
    });

    it('lets exactly one of many concurrent takes of one id through', async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => leases.take({ ...lease('a'), process: `p${i}` })),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('copies values in and out', async () => {
      const taken = lease('a');
      await leases.take(taken);
      taken.until.setTime(0);
      const [found] = await leases.find(['a']);
      found!.until.setTime(0);
      expect((await leases.find(['a']))[0]!.until).toEqual(at(30_000));
    });
  });
}
