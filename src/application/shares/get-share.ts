import type { Share, ShareCounter, ShareType } from '../../domain/index.js';
import { notFound } from '../../domain/index.js';
import type { ShareView } from '../views.js';
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
    const opened = peek ? null : await this.openRead(id, actor?.userId ?? null);
    if (opened) return opened;
    const share = await findShare(this.p, id, client);
    assertActive(this.p, share, actor);
    await unlockShare(this.p, share, { password, client }, actor);
    const view = await shareView(this.p, share);
    if (!view) throw notFound('Share');
    if (peek) return view;
    const counted = await countUse(this.p, share, countersOf(share), actor);
    return { ...view, ...shareFields(counted, this.p.clock.now()) };
  }

  /**
   * The common read, an open share read by someone other than its owner, in two commands: the count (which checks
   * the share is active, open and not the reader's in the same atomic step, and returns it) and the item. Null
   * when the count did not apply; the full path then judges the read. An item found gone takes the count back, so
   * a refused read still counts nothing (a share whose item is deleted goes with it).
   */
  private async openRead(id: string, readerId: string | null): Promise<ShareView | null> {
    // Not a paste: its read counts a download too (countersOf), which the full path counts with the view.
    const use = { counter: 'views' as const, now: this.p.clock.now(), readerId, types: VIEW_ONLY_TYPES };
    const counted = await this.p.shares.countOpenUse(id, use);
    if (!counted) return null;
    const view = await shareView(this.p, counted);
    if (view) return view;
    await this.p.shares.uncountUse(id, 'views');
    throw notFound('Share');
  }
}

const VIEW_ONLY_TYPES: readonly ShareType[] = ['file', 'folder', 'collection'];

/**
 * A paste's answer carries its whole content, so it is a download too: both count in the one update, and
 * maxDownloads cannot be stepped around by reading the share instead of its content.
 */
function countersOf(share: Share): ShareCounter | ShareCounter[] {
  return share.type === 'paste' ? ['views', 'downloads'] : 'views';
}
