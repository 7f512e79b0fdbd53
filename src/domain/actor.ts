import { forbidden } from './errors.js';
import type { LimitOverrides } from './limits.js';
import type { ShareType } from './share.js';
import type { TokenType } from './token.js';
import type { UserType } from './user.js';

/** Who is calling: an authenticated user and the kind of token they presented. */
export interface Actor {
  userId: string;
  userType: UserType;
  /**
   * `request`: someone without an account sending a file through a file request (`tokenId` is the request's id); such
   * an actor is made only inside the core, for uploads into the request's folder, and may do nothing else.
   */
  via: TokenType | 'request';
  tokenId: string;
  /**
   * The user's own maxima, read with the token (one read establishes who calls and what they may hold). Every limit
   * is still enforced by one conditional update against these; an admin's change applies from the next request.
   */
  limits: LimitOverrides;
}

/** What an uploader (API) token may do; everything else needs a session. */
const UPLOADER_ACTIONS = new Set(['file.upload', 'paste.create', 'share.create', 'usage.read'] as const);
export type UploaderAction = typeof UPLOADER_ACTIONS extends Set<infer A> ? A : never;

/**
 * What a WebDAV client (a `dav` token, or the account password over Basic at /dav/) may do: the user's folders and
 * files, and reading usage (quota). It never reaches shares, pastes, collections, tokens or the account.
 */
const DAV_ACTIONS = new Set(['file.upload', 'file.update', 'file.delete', 'file.read', 'folder.create', 'folder.list', 'folder.update', 'folder.delete', 'usage.read']);

/** Guards every use case: an uploader token passes only for its four actions, a dav caller only for its own. */
export function assertMay(actor: Actor, action: string): void {
  if (actor.via === 'session') return;
  if (actor.via === 'dav') {
    if (DAV_ACTIONS.has(action)) return;
    throw forbidden('A dav token works only for folders and files under /dav/');
  }
  if (actor.via === 'request' && action !== 'file.upload') throw forbidden('An uploader of a file request may only send files');
  if (!UPLOADER_ACTIONS.has(action as UploaderAction)) {
    throw forbidden('An API token cannot be used for this operation');
  }
}

/** Admin operations need a session token of an admin; an API token never passes, whoever owns it. */
export function assertAdmin(actor: Actor): void {
  if (actor.via !== 'session' || actor.userType !== 'admin') {
    throw forbidden('Admin session required');
  }
}

/** The uploader token behind a create, recorded on what it makes; null for a session. */
export function uploaderTokenOf(actor: Actor): string | null {
  return actor.via === 'uploader' ? actor.tokenId : null;
}

/** What an item records of its making, for the sharing rule. */
export interface MadeBy {
  ownerId: string;
  uploaderTokenId: string | null;
}

/**
 * An uploader token shares files and pastes only, so a leaked token never turns a folder or collection public.
 * Decided from the kind alone, before any lookup, so the answer says nothing about what exists.
 */
export function assertMayShareKind(actor: Actor, type: ShareType): void {
  if (actor.via !== 'session' && type !== 'file' && type !== 'paste') {
    throw forbidden('An API token can share only the files and pastes it uploaded');
  }
}

/**
 * A session shares anything its user owns; an uploader token only what that same token uploaded or pasted. Anything
 * else is treated as missing (not_found), so a token learns nothing about items it did not make.
 */
export function mayShareItem(actor: Actor, item: MadeBy | null): boolean {
  if (!item || item.ownerId !== actor.userId) return false;
  return actor.via === 'session' || item.uploaderTokenId === actor.tokenId;
}
