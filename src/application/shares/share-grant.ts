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

/** What a grant opens: a share, or a file request (`purpose` keeps one's grants from ever opening the other). */
export interface Grantable {
  purpose: 'share' | 'request';
  id: string;
  passwordHash: string | null;
}

// The key is the password hash: it never leaves the server, every instance on the database holds it, and it changes
// (new salt) whenever the password is set again, so a new password ends every grant of the old one.
const message = (item: Grantable, expires: number) => `coffer-${item.purpose}-grant\0${item.id}\0${expires}`;

const asGrantable = (share: Share): Grantable => ({ purpose: 'share', id: share.id, passwordHash: share.passwordHash });

/** A grant for this item only; null for an open one, which needs none. */
export function issueGrantFor(p: Deps, item: Grantable): ShareGrant | null {
  if (item.passwordHash === null) return null;
  const expires = p.clock.now().getTime() + SHARE_GRANT_TTL_MS;
  const mac = p.secrets.mac(item.passwordHash, message(item, expires));
  return {
    value: `${expires.toString(36)}.${mac}`,
    expiresAt: new Date(expires),
    maxAgeSeconds: SHARE_GRANT_TTL_MS / 1000,
  };
}

/** Whether `value` is an unexpired grant of this item under its current password. */
export function grantOpensFor(p: Deps, item: Grantable, value: string): boolean {
  if (item.passwordHash === null) return true;
  const [stamp = '', mac = '', ...rest] = value.split('.');
  if (rest.length > 0 || !/^[0-9a-z]{1,12}$/.test(stamp) || mac === '') return false;
  const expires = parseInt(stamp, 36);
  const now = p.clock.now().getTime();
  // A grant never lives longer than the server hands them out for, whatever its stamp says.
  if (expires <= now || expires > now + SHARE_GRANT_TTL_MS) return false;
  return p.secrets.macMatches(item.passwordHash, message(item, expires), mac);
}

/** A grant for this share only; null for an open share, which needs none. */
export function issueGrant(p: Deps, share: Share): ShareGrant | null {
  return issueGrantFor(p, asGrantable(share));
}

/** Whether `value` is an unexpired grant of this share under its current password. */
export function grantOpens(p: Deps, share: Share, value: string): boolean {
  return grantOpensFor(p, asGrantable(share), value);
}
