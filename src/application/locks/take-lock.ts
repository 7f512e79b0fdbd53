import type { WriteLock } from '../../domain/index.js';
import { assertMay, conflicting, DomainError, MAX_LOCKS_PER_USER } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { changeVersioned } from '../versioned-change.js';
import { live, seconds } from './lock-lifetime.js';

type TakeLockPort = Core['takeLock'];

type Deps = Pick<Ports, 'locks' | 'clock' | 'ids'>;

/** Takes a write lock, in one conditional write against every lock the user's clients hold (on any instance). */
export class TakeLock implements TakeLockPort {
  constructor(private readonly p: Deps) {}

  async execute({ actor, path, depth, scope, owner, timeoutSeconds }: Parameters<TakeLockPort['execute']>[0]) {
    assertMay(actor, 'file.update');
    const now = this.p.clock.now();
    const timeout = seconds(timeoutSeconds);
    const lock: WriteLock = {
      token: `opaquelocktoken:${this.p.ids.newId()}`,
      path,
      depth,
      scope,
      owner,
      timeoutSeconds: timeout,
      expiresAt: new Date(now.getTime() + timeout * 1000),
    };
    return changeVersioned(this.p.locks, actor.userId, (all) => {
      const locks = live(all, now);
      if (conflicting(locks, path, depth, scope).length > 0) {
        throw new DomainError('conflict', 'Locked', { locked: true });
      }
      if (locks.length >= MAX_LOCKS_PER_USER) throw new DomainError('payload_too_large', `At most ${MAX_LOCKS_PER_USER} locks`);
      return { next: [...locks, lock], result: lock };
    });
  }
}
