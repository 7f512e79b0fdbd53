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

/** The session token of the cookie, or null when the request carries none (or one that cannot be a token). */
export function sessionCookie(ctx: Context): string | null {
  const values = new Map<string, string>();
  for (const pair of (ctx.get('Cookie') || '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0) values.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
  const value = values.get(HOST_NAME) ?? values.get(PLAIN_NAME);
  return value !== undefined && TOKEN.test(value) ? value : null;
}

/** `maxAgeSeconds` null: a cookie that ends with the browser session; 0: deleted at once. */
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
