import type { Context } from 'koa';

/**
 * The browser's session: the same session token an API client gets from login, held in an HttpOnly cookie so that
 * no page script can read it. Over HTTPS the name carries the `__Host-` prefix, which browsers accept only with
 * Secure, Path=/ and no Domain: a sibling subdomain can then neither set nor shadow it.
 */
const PLAIN_NAME = 'coffer_session';
const HOST_NAME = `__Host-${PLAIN_NAME}`;

// Our tokens are base64url; anything else in the cookie is not ours and is ignored.
const TOKEN = /^[A-Za-z0-9_-]{1,512}$/;

/**
 * The session token of the cookie, or null when the request carries none (or one that cannot be a token). Read
 * through Koa's `ctx.cookies`, as every cookie is (grant-cookie.ts too): a name sent twice counts once, its first
 * value, the one browsers put first (the longest path, then the oldest). The `__Host-` name, which no other origin
 * can set, wins over the plain one.
 */
export function sessionCookie(ctx: Context): string | null {
  const value = ctx.cookies.get(HOST_NAME) ?? ctx.cookies.get(PLAIN_NAME);
  return value !== undefined && TOKEN.test(value) ? value : null;
}

/**
 * The cookie's line. `maxAgeSeconds` null: a cookie that ends with the browser session; 0: deleted at once. Written
 * here rather than by ctx.cookies.set, which (the `cookies` package) turns a lifetime into an Expires date from this
 * server's clock instead of Max-Age, which a browser counts on its own, and refuses Secure whenever Koa does not see
 * the request itself as HTTPS (a PUBLIC_URL of https: behind a proxy that ends TLS, without TRUST_PROXY).
 */
function cookieLine(secure: boolean, value: string, maxAgeSeconds: number | null): string {
  const parts = [`${secure ? HOST_NAME : PLAIN_NAME}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Strict'];
  if (secure) parts.push('Secure');
  if (maxAgeSeconds !== null) parts.push(`Max-Age=${maxAgeSeconds}`);
  return parts.join('; ');
}

/** Hands the browser its session; `secure` when the public base is HTTPS. Never cached by anything between. */
export function setSessionCookie(ctx: Context, token: string, secure: boolean, maxAgeSeconds: number | null): void {
  ctx.append('Set-Cookie', cookieLine(secure, token, maxAgeSeconds));
  ctx.set('Cache-Control', 'no-store');
}

/** Removes the cookie under both names, so a switch between HTTP and HTTPS leaves nothing behind. */
export function clearSessionCookie(ctx: Context): void {
  ctx.append('Set-Cookie', cookieLine(false, '', 0));
  ctx.append('Set-Cookie', cookieLine(true, '', 0));
  ctx.set('Cache-Control', 'no-store');
}
