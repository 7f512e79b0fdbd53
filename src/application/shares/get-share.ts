import type { Actor, Share } from '../../domain/index.js';
import { notFound } from '../../domain/index.js';
import type { Core, ShareKey } from '../contract.js';
import type { Ports } from '../ports/index.js';
import type { ShareView } from '../views.js';
import { assertActive, countUse, findShare, unlockShare } from '../share-access.js';
import { shareFields, shareView } from './share-views.js';

type Port = Core['getShare'];
export type ReadShareDeps = Pick<
  Ports,
  'shares' | 'hasher' | 'throttle' | 'users' | 'files' | 'folders' | 'collections' | 'pastes' | 'clock' | 'secrets'
>;

/**
 * Only a read that succeeds counts a view, and the answer includes it; the count is the last step, so a read
 * refused for any reason (password, gone, missing item) counts nothing.
 */
export async function readShare(
  p: ReadShareDeps,
  { actor, id, ...key }: { actor: Actor | null } & ShareKey,
): Promise<{ share: Share; view: ShareView }> {
  const share = await findShare(p, id, key.client);
  assertActive(p, share, actor);
  await unlockShare(p, share, key, actor);
  const view = await shareView(p, share);
  if (!view) throw notFound('Share');
  if (key.peek) return { share, view };
  // A paste's answer carries its whole content, so it is a download too: both count in the one update, and
  // maxDownloads cannot be stepped around by reading the share instead of its content.
  const counted = await countUse(p, share, share.type === 'paste' ? ['views', 'downloads'] : 'views', actor);
  return { share: counted, view: { ...view, ...shareFields(counted, p.clock.now()) } };
}

/** Public: a share by its link, with its password or grant when it has one. */
export class GetShare implements Port {
  constructor(private readonly p: ReadShareDeps) {}

  async execute(input: Parameters<Port['execute']>[0]) {
    return (await readShare(this.p, input)).view;
  }
}
