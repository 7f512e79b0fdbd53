import { notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { assertActive, countUse, findShare, unlockShare } from '../share-access.js';
import { shareFields, shareView } from './share-views.js';

type Port = Core['getShare'];

/**
 * Public. Only a read that succeeds counts a view, and the answer includes it; the count is the last step, so a read
 * refused for any reason (password, gone, missing item) counts nothing.
 */
export class GetShare implements Port {
  constructor(
    private readonly p: Pick<
      Ports,
      'shares' | 'hasher' | 'throttle' | 'users' | 'files' | 'folders' | 'collections' | 'pastes' | 'clock'
    >,
  ) {}

  async execute({ actor, id, password, client, peek }: Parameters<Port['execute']>[0]) {
    const share = await findShare(this.p, id, client);
    assertActive(this.p, share, actor);
    await unlockShare(this.p, share, { password, client }, actor);
    const view = await shareView(this.p, share);
    if (!view) throw notFound('Share');
    if (peek) return view;
    // A paste's answer carries its whole content, so it is a download too: both count in the one update, and
    // maxDownloads cannot be stepped around by reading the share instead of its content.
    const counted = await countUse(this.p, share, share.type === 'paste' ? ['views', 'downloads'] : 'views', actor);
    return { ...view, ...shareFields(counted, this.p.clock.now()) };
  }
}
