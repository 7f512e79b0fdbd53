import { injectable } from 'inversify';
import type { Token, TokenType } from '../../domain/index.js';
import type { CreatedKey, TokenRepository } from '../../application/ports/index.js';
import { clone } from './clone.js';
import { Groups } from './groups.js';
import { compareCreated, pageCreated } from './order.js';

@injectable()
export class MemoryTokenRepository implements TokenRepository {
  private readonly rows = new Map<string, Token>();
  /** A presented secret must resolve to one token at most, so hashes are unique like ids. */
  private readonly byHash = new Map<string, string>();
  private readonly byUser = new Groups<string, Token>();

  async insert(token: Token): Promise<void> {
    if (this.rows.has(token.id)) throw new Error(`A token with id ${token.id} already exists`);
    if (this.byHash.has(token.hash)) throw new Error('A token with this hash already exists');
    const stored = clone(token);
    this.rows.set(stored.id, stored);
    this.byHash.set(stored.hash, stored.id);
    this.byUser.set(stored.userId, stored.id, stored);
  }

  async findByHash(hash: string): Promise<Token | null> {
    const id = this.byHash.get(hash);
    return id === undefined ? null : clone(this.rows.get(id)!);
  }

  async findById(id: string): Promise<Token | null> {
    const token = this.rows.get(id);
    return token ? clone(token) : null;
  }

  async listByUser(userId: string, type: TokenType | readonly TokenType[]): Promise<Token[]> {
    const types: readonly TokenType[] = typeof type === 'string' ? [type] : type;
    return this.ofUser(userId)
      .filter((token) => types.includes(token.type))
      .sort(compareCreated)
      .map(clone);
  }

  async pageByUser(
    userId: string,
    type: TokenType | readonly TokenType[],
    after: CreatedKey | null,
    limit: number,
  ): Promise<Token[]> {
    const types: readonly TokenType[] = typeof type === 'string' ? [type] : type;
    const ofType = this.ofUser(userId).filter((token) => types.includes(token.type));
    return pageCreated(ofType, after, limit).map(clone);
  }

  async delete(id: string): Promise<boolean> {
    const token = this.rows.get(id);
    if (!token) return false;
    this.rows.delete(id);
    this.byHash.delete(token.hash);
    this.byUser.delete(token.userId, id);
    return true;
  }

  async deleteByUser(userId: string, type?: TokenType, keep?: string): Promise<number> {
    let deleted = 0;
    for (const token of this.ofUser(userId)) {
      if ((type !== undefined && token.type !== type) || token.id === keep) continue;
      this.rows.delete(token.id);
      this.byHash.delete(token.hash);
      this.byUser.delete(userId, token.id);
      deleted++;
    }
    return deleted;
  }

  /** Check and write in one synchronous step, as MongoDB's conditional update does. */
  async extendExpiry(id: string, expiresAt: Date, now: Date): Promise<boolean> {
    const token = this.rows.get(id);
    const stored = token?.expiresAt?.getTime();
    if (!token || stored === undefined || stored <= now.getTime() || stored >= expiresAt.getTime()) return false;
    token.expiresAt = new Date(expiresAt);
    return true;
  }

  async moveEpoch(id: string, from: number, to: number): Promise<boolean> {
    const token = this.rows.get(id);
    if (!token || token.credentialsEpoch !== from) return false;
    token.credentialsEpoch = to;
    return true;
  }

  private ofUser(userId: string): Token[] {
    return [...this.byUser.get(userId).values()];
  }
}
