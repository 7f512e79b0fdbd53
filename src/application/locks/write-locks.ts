import type { WriteLock } from '../../domain/index.js';
import {
  assertMay,
  conflicting,
  DomainError,
  isWithin,
  MAX_LOCK_SECONDS,
  MAX_LOCKS_PER_USER,
  notFound,
} from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { changeVersioned } from '../versioned-change.js';

type DropLocksPort = Core['dropLocks'];
type ListLocksPort = Core['listLocks'];
type RefreshLockPort = Core['refreshLock'];
type ReleaseLockPort = Core['releaseLock'];
type TakeLockPort = Core['takeLock'];

type Deps = Pick<Ports, 'locks' | 'clock' | 'ids'>;

const live = (locks: readonly WriteLock[], now: Date) => locks.filter((lock) => lock.expiresAt > now);
const seconds = (asked: number) => Math.max(1, Math.min(MAX_LOCK_SECONDS, Math.floor(asked)));

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

/** The live locks of the user's clients. */
export class ListLocks implements ListLocksPort {
  constructor(private readonly p: Deps) {}

  async execute({ actor }: Parameters<ListLocksPort['execute']>[0]) {
    assertMay(actor, 'folder.list');
    return live((await this.p.locks.read(actor.userId)).value, this.p.clock.now());
  }
}

/** Ends the locks on `path` and below it (what stood there was deleted or moved away). */
export class DropLocks implements DropLocksPort {
  constructor(private readonly p: Deps) {}

  async execute({ actor, path }: Parameters<DropLocksPort['execute']>[0]) {
    assertMay(actor, 'file.update');
    const now = this.p.clock.now();
    const { value } = await this.p.locks.read(actor.userId);
    if (!value.some((lock) => isWithin(lock.path, path))) return;
    await changeVersioned(this.p.locks, actor.userId, (all) => ({
      next: live(all, now).filter((lock) => !isWithin(lock.path, path)),
      result: undefined,
    }));
  }
}
