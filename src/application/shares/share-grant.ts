import type { Share } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';

/** How long an unlocked share stays open to the browser that typed its password. */
export const SHARE_GRANT_TTL_MS = 2 * 60 * 60 * 1000;

/** Proof that a browser typed a protected share's password: `{expiry in ms, base 36}.{mac}`. */
export interface ShareGrant {
  value: string;
  expiresAt: Date;
  /** Its lifetime from now, for a cookie's Max-Age (the server's clock, not the client's). */
  maxAgeSeconds: number;
}

type Deps = Pick<Ports, 'secrets' | 'clock'>;

// The key is the share's password hash: it never leaves the server, every instance on the database holds it, and
// it changes (new salt) whenever the password is set again, so a new password ends every grant of the old one.
const message = (share: Share, expires: number) => `coffer-share-grant\0${share.id}\0${expires}`;

/** A grant for this share only; null for an open share, which needs none. */
export function issueGrant(p: Deps, share: Share): ShareGrant | null {
  if (share.passwordHash === null) return null;
  const expires = p.clock.now().getTime() + SHARE_GRANT_TTL_MS;
  const mac = p.secrets.mac(share.passwordHash, message(share, expires));
  return {
    value: `${expires.toString(36)}.${mac}`,
    expiresAt: new Date(expires),
    maxAgeSeconds: SHARE_GRANT_TTL_MS / 1000,
  };
}

/** Whether `value` is an unexpired grant of this share under its current password. */
export function grantOpens(p: Deps, share: Share, value: string): boolean {
  if (share.passwordHash === null) return true;
  const [stamp = '', mac = '', ...rest] = value.split('.');
  if (rest.length > 0 || !/^[0-9a-z]{1,12}$/.test(stamp) || mac === '') return false;
  const expires = parseInt(stamp, 36);
  const now = p.clock.now().getTime();
  // A grant never lives longer than the server hands them out for, whatever its stamp says.
  if (expires <= now || expires > now + SHARE_GRANT_TTL_MS) return false;
  return p.secrets.macMatches(share.passwordHash, message(share, expires), mac);
}
