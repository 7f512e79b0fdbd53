import type { Token, TokenType } from '../../domain/index.js';

export const TokenRepository = Symbol('TokenRepository');

export interface TokenRepository {
  insert(token: Token): Promise<void>;
  findByHash(hash: string): Promise<Token | null>;
  findById(id: string): Promise<Token | null>;
  /** The user's tokens of one type, ordered by createdAt then id. */
  listByUser(userId: string, type: TokenType): Promise<Token[]>;
  delete(id: string): Promise<boolean>;
  /** Deletes the user's tokens (of one type, or all); returns how many went. */
  deleteByUser(userId: string, type?: TokenType): Promise<number>;
}
