import { assertMay } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import type { ShareView } from '../views.js';
import { shareView } from './share-views.js';

type Port = Core['listShares'];

/** Every share of the caller, expired and exhausted ones too (their `state` says so), so they can be lifted. */
export class ListShares implements Port {
  constructor(
    private readonly p: Pick<Ports, 'shares' | 'users' | 'files' | 'folders' | 'collections' | 'pastes' | 'clock'>,
  ) {}

  async execute({ actor }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'share.list');
    const shares = await this.p.shares.listByOwner(actor.userId);
    const views = await Promise.all(shares.map((share) => shareView(this.p, share)));
    return views.filter((view): view is ShareView => view !== null);
  }
}
