import { assertMay, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { changeVersioned } from '../versioned-change.js';
import { live } from './lock-lifetime.js';

type ReleaseLockPort = Core['releaseLock'];

type Deps = Pick<Ports, 'locks' | 'clock'>;

/** Ends a lock; not_found when no live lock has the token. */
export class ReleaseLock implements ReleaseLockPort {
  constructor(private readonly p: Deps) {}

  async execute({ actor, token }: Parameters<ReleaseLockPort['execute']>[0]) {
    assertMay(actor, 'file.update');
    const now = this.p.clock.now();
    await changeVersioned(this.p.locks, actor.userId, (all) => {
      const locks = live(all, now);
      if (!locks.some((lock) => lock.token === token)) throw notFound('Lock');
      return { next: locks.filter((lock) => lock.token !== token), result: undefined };
    });
  }
}
