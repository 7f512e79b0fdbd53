import { forbidden } from './errors.js';
import type { TokenType } from './token.js';
import type { UserType } from './user.js';

/** Who is calling: an authenticated user and the kind of token they presented. */
export interface Actor {
  userId: string;
  userType: UserType;
  via: TokenType;
  tokenId: string;
}

/** What an uploader (API) token may do; everything else needs a session. */
const UPLOADER_ACTIONS = new Set(['file.upload', 'paste.create', 'share.create', 'usage.read'] as const);
export type UploaderAction = typeof UPLOADER_ACTIONS extends Set<infer A> ? A : never;

/** Guards every use case: an uploader token passes only for its four actions. */
export function assertMay(actor: Actor, action: string): void {
  if (actor.via === 'session') return;
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
