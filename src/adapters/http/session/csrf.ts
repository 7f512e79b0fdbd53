import type { Context } from 'koa';
import { forbidden } from '../../../domain/index.js';
import { publicBase } from '../server/public-url.js';

/** The header every state-changing request authenticated by the cookie must carry (see assertCookieWriteAllowed). */
export const CSRF_HEADER = 'X-Coffer-CSRF';
export const CSRF_VALUE = '1';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Fetch metadata of a request a page of our own origin made, or a person typed or bookmarked. */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

export function isSafeMethod(ctx: Context): boolean {
  return SAFE_METHODS.has(ctx.method);
}

/**
 * Whether the browser says this request comes from our own origin. Browsers set Sec-Fetch-Site and Origin
 * themselves and no page can forge them; a request that carries neither is not from a modern browser's page.
 * Our origin is the public base (PUBLIC_URL) or the origin the request was sent to (a LAN address, say).
 */
export function fromOwnOrigin(ctx: Context, publicUrl: string | null | undefined): boolean {
  const site = ctx.get('Sec-Fetch-Site');
  if (site !== '' && !OWN_FETCH_SITES.has(site)) return false;
  const origin = ctx.get('Origin');
  if (origin === '') return true;
  return origin === publicBase(ctx, publicUrl) || origin === publicBase(ctx, null);
}

/**
 * Whether the browser says this request opens a page in a tab or window of its own: a top-level navigation, which the
 * visitor sees (unlike an image, script, fetch or frame another origin's page embeds or makes).
 */
export function isTopLevelNavigation(ctx: Context): boolean {
  return ctx.get('Sec-Fetch-Mode') === 'navigate' && ctx.get('Sec-Fetch-Dest') === 'document';
}

/**
 * The CSRF defence of cookie sessions, for a request that changes something. Three locks, each enough on its own
 * in a current browser: SameSite=Strict keeps the cookie off requests from other sites; Sec-Fetch-Site and Origin
 * refuse requests from any other origin, a sibling subdomain included (same site, so SameSite lets the cookie
 * through); and the custom header cannot be sent by another origin at all without a CORS preflight, which this
 * service never grants. API clients that send `Authorization` never reach this check.
 */
export function assertCookieWriteAllowed(ctx: Context, publicUrl: string | null | undefined): void {
  if (!fromOwnOrigin(ctx, publicUrl)) {
    throw forbidden('Cross-origin requests may not use the browser session');
  }
  if (ctx.get(CSRF_HEADER) !== CSRF_VALUE) {
    throw forbidden(`A request that uses the browser session must send the header ${CSRF_HEADER}: ${CSRF_VALUE}`);
  }
}
