import type { Token, TokenType } from '../../domain/index.js';
import type { CreatedKey } from './page-keys.js';

export const TokenRepository = Symbol('TokenRepository');

export interface TokenRepository {
  insert(token: Token): Promise<void>;
  findByHash(hash: string): Promise<Token | null>;
  findById(id: string): Promise<Token | null>;
  /** The user's tokens of one type (or of any of several), ordered by createdAt then id. */
  listByUser(userId: string, type: TokenType | readonly TokenType[]): Promise<Token[]>;
  /** One keyset page of the user's tokens of one type: by createdAt then id, strictly after `after` (null: start). */
  pageByUser(userId: string, type: TokenType | readonly TokenType[], after: CreatedKey | null, limit: number): Promise<Token[]>;
  delete(id: string): Promise<boolean>;
  /** Deletes the user's tokens (of one type, or all) except the one with id `keep`; returns how many went. */
  deleteByUser(userId: string, type?: TokenType, keep?: string): Promise<number>;
  /**
   * Moves a session's expiry later, to `expiresAt`, in one conditional write: only while it is still unexpired at
   * `now` and its stored expiry is earlier. False when nothing was written (gone, expired, or already as late).
   */
  extendExpiry(id: string, expiresAt: Date, now: Date): Promise<boolean>;
  /** Sets a session's credentialsEpoch to `to` only if it is `from`, in one conditional write; false otherwise. */
  moveEpoch(id: string, from: number, to: number): Promise<boolean>;
}
