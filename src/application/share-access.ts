import type { Actor, Share, ShareTarget } from '../domain/index.js';
import { DomainError, assertMay, notFound, shareReaches, unauthorized } from '../domain/index.js';
import type { Ports } from './ports/index.js';
import type { ReadAccess } from './contract.js';

type Deps = Pick<Ports, 'shares' | 'hasher'>;

/** The owner's own session needs no password; anyone else needs the right one when the share has one. */
export async function unlockShare(p: Deps, share: Share, password: string | null, actor: Actor | null): Promise<void> {
  if (share.passwordHash === null) return;
  if (actor && actor.via === 'session' && actor.userId === share.ownerId) return;
  if (password === null || password === '') {
    throw new DomainError('share_password_required', 'This share is protected by a password');
  }
  if (!(await p.hasher.verify(share.passwordHash, password))) {
    throw new DomainError('share_password_invalid', 'The share password is wrong');
  }
}

/** A share looked up by its public id; a missing one is not_found. */
export async function findShare(p: Pick<Ports, 'shares'>, id: string): Promise<Share> {
  const share = await p.shares.findById(id);
  if (!share) throw notFound('Share');
  return share;
}

export interface ReadTarget {
  /** For messages: "File", "Folder", ... */
  what: string;
  ownerId: string;
  /** The action an owner's token must allow (uploader tokens read nothing). */
  action: string;
  /** Describes the target for the share rule; called only for reads through a share. */
  describe(share: Share): Promise<ShareTarget>;
}

/**
 * One rule for every read: the owner reads with a session; anyone reads through a share link that reaches the item,
 * once the share is unlocked. Everything else is not_found, so existence is never revealed.
 */
export async function authorizeRead(p: Deps, access: ReadAccess, target: ReadTarget): Promise<void> {
  const { actor } = access;
  if (actor && actor.userId === target.ownerId) {
    assertMay(actor, target.action);
    return;
  }
  if (access.share) {
    const share = await p.shares.findById(access.share.id);
    if (!share || share.ownerId !== target.ownerId) throw notFound(target.what);
    await unlockShare(p, share, access.share.password, actor);
    if (!shareReaches(share, await target.describe(share))) throw notFound(target.what);
    return;
  }
  if (!actor) throw unauthorized();
  assertMay(actor, target.action);
  throw notFound(target.what);
}
