import type { Actor, Share, ShareCounter, ShareType } from '../../domain/index.js';
import { notFound } from '../../domain/index.js';
import type { Core, FolderPage, ShareKey } from '../contract.js';
import type { Ports } from '../ports/index.js';
import type { ShareView } from '../views.js';
import { assertActive, countUse, countsFor, findShare, unlockShare } from './share-access.js';
import { limitReachedBy, note, shareTarget } from '../activity/note.js';
import { folderInShare } from './folder-in-share.js';
import { shareFields, shareView } from './share-views.js';

type Port = Core['getShare'];
export type ReadShareDeps = Pick<
  Ports,
  'shares' | 'hasher' | 'throttle' | 'activity' | 'ids' | 'settings' | 'users' | 'files' | 'folders' | 'collections' | 'pastes' | 'clock' | 'secrets'
>;
type ShareRead = { share: Share; view: ShareView };

/**
 * Only a read that succeeds counts a view, and the answer includes it; the count is the last step, so a read
 * refused for any reason (password, gone, missing item, a folder page outside the share) counts nothing.
 */
export async function readShare(
  p: ReadShareDeps,
  { actor, id, folderId, ...key }: { actor: Actor | null } & ShareKey & FolderPage,
): Promise<ShareRead> {
  // A folder's page is judged before anything is counted, so it takes the full path.
  const opened = key.peek || folderId !== undefined ? null : await openRead(p, id, actor?.userId ?? null);
  if (opened) {
    noteView(p, opened.share, ['views'], key);
    return opened;
  }
  const share = await findShare(p, id, key.client);
  assertActive(p, share, actor, key.reader);
  await unlockShare(p, share, key, actor);
  if (folderId !== undefined) await folderInShare(p, share, folderId);
  const view = await shareView(p, share);
  if (!view) throw notFound('Share');
  if (key.peek) {
    // A link-preview bot is recorded, counting nothing; a HEAD or a prefetch is not a visit at all.
    if (key.reader?.bot && countsFor(share, actor)) note(p, shareTarget(share), 'view', key.reader);
    return { share, view };
  }
  const counters = countersOf(share);
  const counted = await countUse(p, share, counters, actor, key.reader);
  if (countsFor(share, actor)) noteView(p, counted, typeof counters === 'string' ? [counters] : counters, key);
  return { share: counted, view: { ...view, ...shareFields(counted, p.clock.now()) } };
}

/** One counted view (a paste's read, a download too, is one event: its kind is view). */
function noteView(p: ReadShareDeps, counted: Share, counters: ShareCounter[], key: Pick<ShareKey, 'reader'>): void {
  note(p, shareTarget(counted), 'view', key.reader, { limitReached: limitReachedBy(counted, counters) });
}

/** Public: a share by its link, with its password or grant when it has one. */
export class GetShare implements Port {
  constructor(private readonly p: ReadShareDeps) {}

  async execute(input: Parameters<Port['execute']>[0]) {
    return (await readShare(this.p, input)).view;
  }
}

const VIEW_ONLY_TYPES: readonly ShareType[] = ['file', 'folder', 'collection'];

/**
 * The common read, an open share read by someone other than its owner, in two commands: the count (which checks
 * the share is active, open, not a paste and not the reader's in the same atomic step, and returns it) and the
 * item. Null when the count did not apply; the full path then judges the read. An item found gone takes the count
 * back, so a refused read still counts nothing (a share whose item is deleted goes with it).
 */
async function openRead(p: ReadShareDeps, id: string, readerId: string | null): Promise<ShareRead | null> {
  // Not a paste: its read counts a download too (countersOf), which the full path counts with the view.
  const use = { counter: 'views' as const, now: p.clock.now(), readerId, types: VIEW_ONLY_TYPES };
  const counted = await p.shares.countOpenUse(id, use);
  if (!counted) return null;
  const view = await shareView(p, counted);
  if (view) return { share: counted, view };
  await p.shares.uncountUse(id, 'views');
  throw notFound('Share');
}

/**
 * A paste's answer carries its whole content, so it is a download too: both count in the one update, and
 * maxDownloads cannot be stepped around by reading the share instead of its content.
 */
function countersOf(share: Share): ShareCounter | ShareCounter[] {
  return share.type === 'paste' ? ['views', 'downloads'] : 'views';
}
