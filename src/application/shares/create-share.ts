import type { Actor, DomainError, Share, ShareType } from '../../domain/index.js';
import {
  SHARE_TYPES,
  assertMay,
  assertMayShareKind,
  badRequest,
  conflict,
  isShareType,
  mayShareItem,
  notFound,
} from '../../domain/index.js';
import type { Core, ShareOptions } from '../contract.js';
import type { ShareView } from '../views.js';
import type { Ports } from '../ports/index.js';
import { createHeld } from '../usage/record-holds.js';
import { ITEM_NAMES, sharedItem } from './share-item.js';
import { shareLimits } from './share-limits.js';
import { sharePasswordHash } from './share-password.js';
import { shareView } from './share-views.js';

type Port = Core['createShare'];
export type ShareDeps = Pick<
  Ports,
  | 'shares'
  | 'files'
  | 'folders'
  | 'collections'
  | 'pastes'
  | 'users'
  | 'usage'
  | 'settings'
  | 'ids'
  | 'clock'
  | 'hasher'
  | 'instance'
>;

/**
 * Uploader tokens may share only the files and pastes that same token made (see mayShareItem). One share per item:
 * a second one is a conflict naming the existing share, which its owner could find anyway.
 */
export class CreateShare implements Port {
  constructor(private readonly p: ShareDeps) {}

  async execute({ actor, type, id, ...options }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'share.create');
    if (typeof type !== 'string' || !isShareType(type)) {
      throw badRequest(`type must be one of ${SHARE_TYPES.join(', ')}`, { field: 'type' });
    }
    return shareItem(this.p, actor, type, id, options);
  }
}

/** Shares one item with the options given; the one way a share is made, by CreateShare and by uploads that ask for one. */
export async function shareItem(
  p: ShareDeps,
  actor: Actor,
  type: ShareType,
  id: string,
  { password, passwordHash: hashed, ...options }: ShareOptions & { passwordHash?: string | null },
): Promise<ShareView> {
  assertMayShareKind(actor, type);
  const limits = shareLimits(options, p.clock.now(), true);
  if (!mayShareItem(actor, await sharedItem(p, type, id))) throw notFound(ITEM_NAMES[type]);
  // Checked before reserving so a user at the maximum still hears why; the insert below stays the real guard.
  const taken = await conflictOf(p, type, id);
  if (taken) throw taken;
  // Hashing is slow; doing it before reserving keeps the reservation window short.
  const passwordHash = hashed !== undefined ? hashed : await sharePasswordHash(p, password);
  // Kept on the share, so its public reads need not look the owner up.
  const owner = await p.users.findById(actor.userId);
  if (!owner) throw notFound(ITEM_NAMES[type]);
  const created: Share = {
    id: p.ids.newShareId(),
    ownerId: actor.userId,
    type,
    itemId: id,
    passwordHash,
    views: 0,
    downloads: 0,
    expiresAt: null,
    maxViews: null,
    maxDownloads: null,
    ...limits,
    createdAt: p.clock.now(),
    ownerName: owner.username,
  };
  let view: ShareView | null = null;
  await createHeld(p, actor, 'shares', 'share', created.id, {
    insert: async () => {
      if (!(await p.shares.insert(created))) {
        throw (await conflictOf(p, type, id)) ?? conflict('This item is already shared');
      }
    },
    // The item was deleted (or claimed, or marked, by its removal) between the check and the insert, maybe after its
    // removal claimed its shares: the share takes itself back, with its count; unless the removal claimed it, which
    // then counts it (a claimed share is not deleted here: ShareRepository.delete skips it).
    check: async () => {
      view = await shareView(p, created);
      const gone = !view || (type === 'file' && (await p.files.isClaimed(id)));
      return gone ? notFound(ITEM_NAMES[type]) : null;
    },
    takeBack: async () => (await p.shares.delete(created.id)) !== null,
  });
  return view!;
}

/**
 * The conflict of a second share, naming the share the item has; null when it has none. An insert that lost the
 * race to another create still fails when that share is gone again by the time it looks, only without an id.
 */
async function conflictOf(p: ShareDeps, type: ShareType, itemId: string): Promise<DomainError | null> {
  const existing = await p.shares.findByItem(type, itemId);
  return existing && conflict('This item is already shared', { shareId: existing.id });
}
