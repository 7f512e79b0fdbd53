import type { Actor, ReaderInfo, Share, ShareCounter, ShareTarget } from '../../domain/index.js';
import { limitReachedBy, note, shareTarget, type NoteDeps } from '../activity/note.js';
import { DomainError, assertMay, gone, isShareActive, notFound, shareReaches, unauthorized } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';
import type { ClientAddress, FileContent, ReadAccess, ShareKey } from '../contract.js';
import { judgeGuess, rateLimited } from '../auth/judge-guess.js';
import { grantOpens } from './share-grant.js';
import { sharePasswordKeys, unknownShareKey } from '../auth/throttle-rules.js';

type Deps = Pick<Ports, 'shares' | 'hasher' | 'throttle' | 'clock' | 'secrets'> & NoteDeps;

/** The owner's own session: it needs no share password and reads a share whatever its state. */
function isOwnerSession(actor: Actor | null, share: Share): boolean {
  return actor !== null && actor.via === 'session' && actor.userId === share.ownerId;
}

/**
 * A share that has expired or reached a maximum is gone for every reader but its owner's session. Checked before
 * the password: a dead link has nothing left to protect. This check only answers early; the limits themselves hold
 * through countUse.
 */
export function assertActive(p: NoteDeps, share: Share, actor: Actor | null, reader?: ReaderInfo): void {
  if (!isOwnerSession(actor, share) && !isShareActive(share, p.clock.now())) {
    note(p, shareTarget(share), 'gone', reader);
    throw gone();
  }
}

/**
 * Counts one use of an active share in one atomic check-and-set (the repository's countUse) and returns the share
 * after it. The owner's reads, with any of their tokens, count nothing and use up no limit. A share the count
 * refuses is gone (or not_found when it was deleted meanwhile).
 */
export async function countUse(
  p: Pick<Ports, 'shares'> & NoteDeps,
  share: Share,
  counter: ShareCounter | readonly ShareCounter[],
  actor: Actor | null,
  reader?: ReaderInfo,
): Promise<Share> {
  if (actor !== null && actor.userId === share.ownerId) return share;
  const counted = await p.shares.countUse(share.id, counter, p.clock.now());
  if (counted) return counted;
  if (await p.shares.findById(share.id)) {
    note(p, shareTarget(share), 'gone', reader);
    throw gone();
  }
  throw notFound('Share');
}

/** Whether a read by `actor` counts (and so is activity): everyone's but the owner's. */
export const countsFor = (share: Share, actor: Actor | null) => actor === null || actor.userId !== share.ownerId;

/**
 * Content read through `share` whose opening from byte 0 (the whole file, or the first range of a playback) counts
 * a download; later ranges count nothing, and neither does a reader that only peeks (a link-preview bot) nor a page's
 * preview of a share without a download maximum (ShareKey.preview). A download past the maximum rejects before any
 * byte is read.
 */
export function countingDownloads(
  p: Pick<Ports, 'shares'> & NoteDeps,
  content: FileContent,
  share: Share,
  actor: Actor | null,
  key: Pick<ShareKey, 'peek' | 'preview' | 'reader'> = {},
  fileId: string | null = null,
): FileContent {
  if (key.peek || (key.preview && share.maxDownloads === null)) return content;
  let counted: Share | null = null;
  return {
    ...content,
    open: async (range) => {
      if (!range || range.start === 0) {
        const after = await countUse(p, share, 'downloads', actor, key.reader);
        if (countsFor(share, actor)) counted = after;
      }
      return content.open(range);
    },
    // What went out is known only once the body has: the event is written then, still without anyone waiting.
    sent: (bytes, complete) => {
      if (counted === null) return;
      const limitReached = limitReachedBy(counted, ['downloads']);
      counted = null;
      note(p, shareTarget(share), 'download', key.reader, { fileId, bytes, complete, limitReached });
    },
  };
}

/**
 * The owner's own session needs no password; anyone else needs the right one when the share has one, or a grant
 * that unlocking it handed out (share-grant.ts: no hashing, no guess counted, so a page's parallel reads never meet
 * the throttle). Guesses are throttled per share, per share and client address, and for an address guessing at many
 * shares (judgeGuess): a lockout answers rate_limited whatever the password.
 */
export async function unlockShare(
  p: Pick<Ports, 'hasher' | 'throttle' | 'secrets'> & NoteDeps,
  share: Share,
  key: Omit<ShareKey, 'id'>,
  actor: Actor | null,
): Promise<void> {
  const { passwordHash } = share;
  if (passwordHash === null || isOwnerSession(actor, share)) return;
  if (key.grant && grantOpens(p, share, key.grant)) return;
  const { password, client } = key;
  if (password === null || password === '') {
    throw new DomainError('share_password_required', 'This share is protected by a password');
  }
  const right = async () => ((await p.hasher.verify(passwordHash, password)) ? share : null);
  if (!(await judgeGuess(p.throttle, sharePasswordKeys(share.id, client), right))) {
    note(p, shareTarget(share), 'password_refused', key.reader);
    throw new DomainError('share_password_invalid', 'The share password is wrong');
  }
}

/**
 * A share by its public id, or null. A client that keeps asking for ids that do not exist is scanning: past the
 * limit its unknown ids answer rate_limited instead of not_found. An id that exists always opens, whatever the client
 * looked up before: its 128 random bits, not this counter, are what keeps it from being found.
 */
export async function lookUpShare(
  p: Pick<Ports, 'shares' | 'throttle'>,
  id: string,
  client?: ClientAddress,
): Promise<Share | null> {
  const share = await p.shares.findById(id);
  const key = unknownShareKey(client);
  if (!share && key) {
    const wait = await p.throttle.count([key]);
    if (wait > 0) throw rateLimited(wait);
  }
  return share;
}

/** A share looked up by its public id; a missing one is not_found. */
export async function findShare(
  p: Pick<Ports, 'shares' | 'throttle'>,
  id: string,
  client?: ClientAddress,
): Promise<Share> {
  const share = await lookUpShare(p, id, client);
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
 * One rule for every read: the owner reads with a session; anyone reads through an active share link that reaches
 * the item, once the share is unlocked. Everything else is not_found, so existence is never revealed; a share that is
 * no longer active is gone. Returns the share the read went through (its reader may see only ids inside it, and the
 * caller counts what the read uses up), or null for the owner.
 */
export async function authorizeRead(p: Deps, access: ReadAccess, target: ReadTarget): Promise<Share | null> {
  const { actor } = access;
  if (actor && actor.userId === target.ownerId) {
    assertMay(actor, target.action);
    return null;
  }
  if (access.share) {
    const share = await lookUpShare(p, access.share.id, access.share.client);
    if (!share || share.ownerId !== target.ownerId) throw notFound(target.what);
    assertActive(p, share, actor, access.share.reader);
    await unlockShare(p, share, access.share, actor);
    if (!shareReaches(share, await target.describe(share))) throw notFound(target.what);
    return share;
  }
  if (!actor) throw unauthorized();
  assertMay(actor, target.action);
  throw notFound(target.what);
}
