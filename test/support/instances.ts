import { createCore, type Core, type Ports } from '../../src/application/index.js';
import type { InstanceLeases } from '../../src/application/ports/index.js';
import { MemoryInstanceLeases } from '../../src/adapters/memory/index.js';
import { LeaseKeeper, timingOf } from '../../src/boot/instance-lease.js';
import { createLogger } from '../../src/boot/logger.js';
import type { TestClock } from './core.js';

/** The lease of the instances these helpers make; the clock the test moves decides when one has run out. */
export const LEASE_MS = 30_000;

let made = 0;

/**
 * Moves the clock on by `ms` in steps of half a lease, each running instance renewing its lease after each step: the
 * others' leases run out, theirs never do.
 */
export async function passTime(clock: TestClock, ms: number, ...running: TestInstance[]): Promise<void> {
  for (let left = ms; left > 0; left -= LEASE_MS / 2) {
    clock.advance(Math.min(left, LEASE_MS / 2));
    for (const instance of running) await instance.keeper.renew();
  }
}

/** An instance of Coffer in this process: its own lease and core, over ports it shares with the other instances. */
export interface TestInstance {
  core: Core;
  keeper: LeaseKeeper;
  /** Its ports, the shared ones with this instance's identity. */
  ports: Ports;
}

/**
 * Instances over one set of ports, as several processes over one database: each takes its own lease in `leases` (on
 * the hand-moved clock; renewed only when the test calls `renew`, so a lease runs out once the clock has moved past
 * it). Call `halt` on each when done.
 */
export async function instancesOn(
  ports: Ports,
  clock: TestClock,
  count: number,
  leases: InstanceLeases = new MemoryInstanceLeases(),
): Promise<TestInstance[]> {
  const instances: TestInstance[] = [];
  for (let i = 0; i < count; i++) {
    const ids = { newId: () => `instance-${++made}`, newShareId: () => ports.ids.newShareId() };
    const keeper = new LeaseKeeper(leases, clock, ids, timingOf(LEASE_MS), createLogger('silent'));
    await keeper.start();
    // The test renews by hand: the timer would renew on the real clock's schedule, whatever the test clock says.
    keeper.halt();
    const own = { ...ports, instance: keeper };
    instances.push({ core: createCore(own), keeper, ports: own });
  }
  return instances;
}
