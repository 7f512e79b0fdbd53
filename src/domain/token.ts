import type { User } from './user.js';

/**
 * A session (from login), an uploader API token, or a `dav` token (WebDAV at /dav/ only). Only a hash of the secret is
 * ever stored.
 */
export type TokenType = 'session' | 'uploader' | 'dav';

/** The kinds of API token a user creates and manages (`POST /api/token {scope}`); sessions are not among them. */
export type TokenScope = Exclude<TokenType, 'session'>;
export const TOKEN_SCOPES: readonly TokenScope[] = ['uploader', 'dav'];

export interface Token {
  id: string;
  userId: string;
  type: TokenType;
  name: string;
  hash: string;
  createdAt: Date;
  /** Sessions expire (pushed later while used, see refreshedExpiry); uploader tokens live until deleted. */
  expiresAt: Date | null;
  /** A session's: the user's credentialsEpoch when its login read the password hash. Null for uploader tokens. */
  credentialsEpoch: number | null;
}

/** How long a session lives: `idleMs` after its last use, and never more than `maxMs` after its login. */
export interface SessionLifetime {
  idleMs: number;
  maxMs: number;
}

const HOUR_MS = 3_600_000;

/** The latest a session may be valid: its login plus the absolute maximum. */
function sessionEnd(token: Token, lifetime: SessionLifetime): number {
  return token.createdAt.getTime() + lifetime.maxMs;
}

/** The expiry a session gets at login. */
export function firstExpiry(now: Date, lifetime: SessionLifetime): Date {
  return new Date(now.getTime() + Math.min(lifetime.idleMs, lifetime.maxMs));
}

/**
 * Past its stored expiry, or (a session) past the absolute maximum as configured now, so lowering SESSION_MAX_DAYS
 * ends older sessions too.
 */
export function isExpired(token: Token, now: Date, lifetime: SessionLifetime): boolean {
  if (token.expiresAt === null) return false;
  const time = now.getTime();
  return token.expiresAt.getTime() <= time || (token.type === 'session' && sessionEnd(token, lifetime) <= time);
}

/**
 * The later expiry a session just used should get, or null when it is not worth a write. Each use would push the
 * expiry to now + idle time (capped at the absolute maximum); it is written only once it has fallen behind by the
 * refresh step (1% of the idle time, at most one hour), so a session in constant use costs one write per step, and
 * an idle one expires between idle time − step and idle time after its last use.
 */
export function refreshedExpiry(token: Token, now: Date, lifetime: SessionLifetime): Date | null {
  if (token.type !== 'session' || token.expiresAt === null) return null;
  const target = Math.min(now.getTime() + lifetime.idleMs, sessionEnd(token, lifetime));
  const step = Math.min(lifetime.idleMs / 100, HOUR_MS);
  return target - token.expiresAt.getTime() >= step ? new Date(target) : null;
}

/**
 * A session is good only under the password it was opened with, or, for the one session that changed the password
 * itself (keptSessionId), under the password it set: it was opened at the epoch just before. Uploader tokens are
 * credentials of their own and survive a password change.
 */
export function isCurrentFor(token: Token, user: Pick<User, 'credentialsEpoch' | 'keptSessionId'>): boolean {
  if (token.type !== 'session' || token.credentialsEpoch === user.credentialsEpoch) return true;
  return token.id === user.keptSessionId && token.credentialsEpoch === user.credentialsEpoch - 1;
}
