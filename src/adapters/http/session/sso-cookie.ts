import type { Context } from 'koa';

/**
 * The browser's key to its own single sign-on under way: set by GET /api/auth/oidc/start, brought back to the
 * callback, which accepts the provider's answer only from the browser that started it (no login CSRF with a callback
 * link passed on). SameSite=Lax, unlike the session: the provider sends the browser back from another site with a
 * top-level GET, which Lax lets the cookie ride and Strict would not. `__Host-` over HTTPS, as the session's.
 */
const PLAIN_NAME = 'coffer_sso';
const HOST_NAME = `__Host-${PLAIN_NAME}`;
const KEY = /^[A-Za-z0-9_-]{1,128}$/;
/** As long as the pending sign-in lives. */
const MAX_AGE_SECONDS = 600;

function line(secure: boolean, value: string, maxAge: number): string {
  const parts = [`${secure ? HOST_NAME : PLAIN_NAME}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAge}`];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

export function setSsoCookie(ctx: Context, key: string, secure: boolean): void {
  ctx.append('Set-Cookie', line(secure, key, MAX_AGE_SECONDS));
}

/** The key the browser brought, or null. */
export function ssoCookie(ctx: Context): string | null {
  const value = ctx.cookies.get(HOST_NAME) ?? ctx.cookies.get(PLAIN_NAME);
  return value !== undefined && KEY.test(value) ? value : null;
}

/** Used once: removed under both names whatever the callback's outcome. */
export function clearSsoCookie(ctx: Context): void {
  ctx.append('Set-Cookie', line(false, '', 0));
  ctx.append('Set-Cookie', line(true, '', 0));
}
