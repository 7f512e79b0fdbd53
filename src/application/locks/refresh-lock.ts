import { assertMay, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { changeVersioned } from '../versioned-change.js';
import { live, seconds } from './lock-lifetime.js';

type RefreshLockPort = Core['refreshLock'];

type Deps = Pick<Ports, 'locks' | 'clock'>;

/** A lock's new timeout from now; not_found when no live lock has the token (on `path`, when given). */
export class RefreshLock implements RefreshLockPort {
  constructor(private readonly p: Deps) {}

  async execute({ actor, token, timeoutSeconds }: Parameters<RefreshLockPort['execute']>[0]) {
    assertMay(actor, 'file.update');
    const now = this.p.clock.now();
    const timeout = seconds(timeoutSeconds);
    return changeVersioned(this.p.locks, actor.userId, (all) => {
      const locks = live(all, now);
      const found = locks.find((lock) => lock.token === token);
      if (!found) throw notFound('Lock');
      const refreshed = { ...found, timeoutSeconds: timeout, expiresAt: new Date(now.getTime() + timeout * 1000) };
      return { next: locks.map((lock) => (lock === found ? refreshed : lock)), result: refreshed };
    });
  }
}
