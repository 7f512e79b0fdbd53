import type { Token, User } from '../../domain/index.js';

export const Callers = Symbol('Callers');

/** A presented token's record and the record of the user it belongs to, as one read saw them. */
export interface Caller {
  token: Token;
  /** Null when the token outlived its user. */
  user: User | null;
}

/**
 * Who is calling: every authenticated request starts here, so the token and its user are read together (one
 * database command), never one after the other.
 */
export interface Callers {
  /** The token with this hash and its user; null when no token has this hash. */
  findByTokenHash(hash: string): Promise<Caller | null>;
}

