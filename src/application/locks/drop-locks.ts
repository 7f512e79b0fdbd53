import { assertMay, isWithin } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { changeVersioned } from '../versioned-change.js';
import { live } from './lock-lifetime.js';

type DropLocksPort = Core['dropLocks'];

type Deps = Pick<Ports, 'locks' | 'clock'>;

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
