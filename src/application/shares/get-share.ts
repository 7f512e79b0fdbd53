import { notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { findShare, unlockShare } from '../share-access.js';
import { shareView } from './share-views.js';

type Port = Core['getShare'];

/** Public. Only a read that succeeds counts a view, and the answer includes it. */
export class GetShare implements Port {
  constructor(
    private readonly p: Pick<
      Ports,
      'shares' | 'hasher' | 'throttle' | 'users' | 'files' | 'folders' | 'collections' | 'pastes'
    >,
  ) {}

  async execute({ actor, id, password, client }: Parameters<Port['execute']>[0]) {
    const share = await findShare(this.p, id, client);
    await unlockShare(this.p, share, { password, client }, actor);
    const view = await shareView(this.p, share);
    if (!view) throw notFound('Share');
    const counted = await this.p.shares.incrementViews(id);
    if (!counted) throw notFound('Share');
    return { ...view, views: counted.views };
  }
}
