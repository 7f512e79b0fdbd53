import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { MemoryInstanceLeases } from '../../src/adapters/memory/index.js';
import { writerPrefix } from '../../src/adapters/fs-blob-store/writer.js';
import { LeaseKeeper, timingOf } from '../../src/boot/instance-lease.js';
import { createLogger } from '../../src/boot/logger.js';
import { TestClock } from '../support/core.js';

const LEASE_MS = 30_000;
let next = 0;
const ids = { newId: () => `instance${++next}`, newShareId: () => 'unused' };

function keeperOn(leases: MemoryInstanceLeases, clock: TestClock, leaseMs = LEASE_MS): LeaseKeeper {
  return new LeaseKeeper(leases, clock, ids, timingOf(leaseMs), createLogger('silent'));
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

describe('the instance lease', () => {
  it('makes an instance alive to others while it is renewed, and gone once it runs out', async () => {
    const leases = new MemoryInstanceLeases();
    const clock = new TestClock();
    const [a, b] = [keeperOn(leases, clock), keeperOn(leases, clock)];
    await a.start();
    await b.start();
    try {
      expect(await b.gone([a.id()])).toEqual(new Set());
      clock.advance(LEASE_MS - 1);
      await a.renew();
      clock.advance(LEASE_MS - 1);
      expect(await b.gone([a.id()])).toEqual(new Set());
      clock.advance(1);
      expect(await b.gone([a.id()])).toEqual(new Set([a.id()]));
      // An instance is never gone to itself; an id with no lease at all is gone.
      expect(await b.gone([b.id(), 'never-leased'])).toEqual(new Set(['never-leased']));
    } finally {
      a.halt();
      b.halt();
    }
  });

  it('ends the lease on a clean stop, so the instance is gone at once', async () => {
    const leases = new MemoryInstanceLeases();
    const clock = new TestClock();
    const [a, b] = [keeperOn(leases, clock), keeperOn(leases, clock)];
    await a.start();
    await b.start();
    await a.stop();
    expect(await b.gone([a.id()])).toEqual(new Set([a.id()]));
    b.halt();
  });

  it('goes on under a new id when its lease ran out before it was renewed', async () => {
    const leases = new MemoryInstanceLeases();
    const clock = new TestClock();
    const [a, b] = [keeperOn(leases, clock), keeperOn(leases, clock)];
    await a.start();
    await b.start();
    const lapsed = a.id();
    clock.advance(LEASE_MS);
    await a.renew();
    await b.renew();
    expect(a.id()).not.toBe(lapsed);
    // The lapsed id stays gone: its work may have been undone; the new one is alive.
    expect(await b.gone([lapsed, a.id()])).toEqual(new Set([lapsed]));
    a.halt();
    b.halt();
  });

  it('renews on its schedule, and a halted one (a killed process) stops renewing', async () => {
    const leases = new MemoryInstanceLeases();
    const clock = new TestClock();
    const a = keeperOn(leases, clock, 60);
    await a.start();
    const until = async () => (await leases.find([a.id()]))[0]!.until.getTime();
    const first = await until();
    clock.advance(5);
    await new Promise((r) => setTimeout(r, 40));
    expect(await until()).toBe(first + 5);
    a.halt();
    clock.advance(5);
    await new Promise((r) => setTimeout(r, 40));
    expect(await until()).toBe(first + 5);
  });

  it('takes an instance of this host whose process is gone for gone at once, lease or not', async () => {
    const leases = new MemoryInstanceLeases();
    const clock = new TestClock();
    const until = new Date(clock.now().getTime() + LEASE_MS);
    const [host] = writerPrefix().split('-');
    await leases.take({ id: 'dead-here', process: `${host}-${await deadPid()}-abc`, until });
    await leases.take({ id: 'restarted-pid', process: `${host}-${process.pid}-zzzz`, until });
    await leases.take({ id: 'other-host', process: `00000000-${await deadPid()}-abc`, until });
    const b = keeperOn(leases, clock);
    expect(await b.gone(['dead-here', 'restarted-pid', 'other-host'])).toEqual(new Set(['dead-here', 'restarted-pid']));
  });
});
