import type { Context } from 'koa';
import type { ShareGrant } from '../../../application/shares/share-grant.js';
import { isTopLevelNavigation } from './csrf.js';

/** Where a grant lives: its cookie's name and the path below which it goes (a share's page, a file request's). */
export interface GrantRoom {
  name: string;
  prefix: string;
}
export const SHARE_GRANT: GrantRoom = { name: 'coffer_share', prefix: '/s/' };
export const REQUEST_GRANT: GrantRoom = { name: 'coffer_request', prefix: '/r/' };

// What a grant looks like (share-grant.ts); anything else in the cookie is ignored rather than passed on.
const VALUE = /^[0-9a-z]{1,12}\.[A-Za-z0-9_-]{1,64}$/;

const pathOf = (room: GrantRoom, id: string) => `${room.prefix}${encodeURIComponent(id)}`;

/**
 * The grant travels in a cookie scoped to the page it unlocked and the routes below it: HttpOnly (no script reads
 * it), SameSite=Strict (no other site's page can use it), Secure whenever the service is reached over HTTPS. Written
 * as the session cookie is (session-cookie.ts), with Max-Age.
 */
export function setGrantCookie(ctx: Context, id: string, grant: ShareGrant, secure: boolean, room = SHARE_GRANT): void {
  const attributes = [`Path=${pathOf(room, id)}`, `Max-Age=${grant.maxAgeSeconds}`, 'HttpOnly', 'SameSite=Strict'];
  if (secure) attributes.push('Secure');
  ctx.append('Set-Cookie', [`${room.name}=${grant.value}`, ...attributes].join('; '));
}

/**
 * The grant the browser sent along, when it may count. Read through Koa's `ctx.cookies` with the session cookie's
 * one rule for a name sent twice: the first value counts, the one browsers put first (the most specific path).
 * `SameSite=Strict` keeps it off requests other sites start, but a page of the same site on another origin (another
 * port, a sibling subdomain) still gets it sent; so, as for the session cookie, it counts only on a request from our
 * own origin (`fromOwnOrigin`: `Sec-Fetch-Site` same-origin or none, no foreign `Origin`) or on a top-level
 * navigation, which the visitor sees. Another origin's image, script, fetch or frame of a share is served as if no
 * grant came.
 */
export function grantCookie(ctx: Context, ownOrigin: boolean, room = SHARE_GRANT): string | null {
  if (!ownOrigin && !isTopLevelNavigation(ctx)) return null;
  const value = ctx.cookies.get(room.name);
  return value !== undefined && VALUE.test(value) ? value : null;
}
