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
}

export function isExpired(token: Token, now: Date): boolean {
  return token.expiresAt !== null && token.expiresAt.getTime() <= now.getTime();
}
