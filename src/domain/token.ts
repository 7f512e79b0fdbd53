import type { User } from './user.js';

/** A session (from login) or an uploader API token. Only a hash of the secret is ever stored. */
export type TokenType = 'session' | 'uploader';

export interface Token {
  id: string;
  userId: string;
  type: TokenType;
  name: string;
  hash: string;
  createdAt: Date;
  /** Sessions expire; uploader tokens live until deleted. */
  expiresAt: Date | null;
  /** A session's: the user's credentialsEpoch when its login read the password hash. Null for uploader tokens. */
  credentialsEpoch: number | null;
}

export function isExpired(token: Token, now: Date): boolean {
  return token.expiresAt !== null && token.expiresAt.getTime() <= now.getTime();
}

/**
 * A session is good only under the password it was opened with. Uploader tokens are credentials of their own and
 * survive a password change.
 */
export function isCurrentFor(token: Token, user: Pick<User, 'credentialsEpoch'>): boolean {
  return token.type !== 'session' || token.credentialsEpoch === user.credentialsEpoch;
}
