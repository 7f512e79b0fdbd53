import { assertMay } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { live } from './lock-lifetime.js';

type ListLocksPort = Core['listLocks'];

type Deps = Pick<Ports, 'locks' | 'clock'>;

/** The live locks of the user's clients. */
export class ListLocks implements ListLocksPort {
  constructor(private readonly p: Deps) {}

  async execute({ actor }: Parameters<ListLocksPort['execute']>[0]) {
    assertMay(actor, 'folder.list');
    return live((await this.p.locks.read(actor.userId)).value, this.p.clock.now());
  }
}
