import { inject, injectable } from 'inversify';
import type { Collection, Db, Filter } from 'mongodb';
import type { Token, TokenType } from '../../domain/index.js';
import type { CreatedKey, TokenRepository } from '../../application/ports/index.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';
import { afterCreated, BY_CREATED } from './named-query.js';

export interface TokenDoc {
  _id: string;
  userId: string;
  type: TokenType;
  name: string;
  /** Unique: a presented secret resolves to one token at most. */
  hash: string;
  createdAt: Date;
  /** A TTL index removes expired sessions; null (uploader tokens) never expires. */
  expiresAt: Date | null;
  /** Absent on sessions from before epochs, which count as epoch 0 like their users. */
  credentialsEpoch?: number | null;
}

function toDoc(token: Token): TokenDoc {
  return {
    _id: token.id,
    userId: token.userId,
    type: token.type,
    name: token.name,
    hash: token.hash,
    createdAt: new Date(token.createdAt),
    expiresAt: token.expiresAt === null ? null : new Date(token.expiresAt),
    credentialsEpoch: token.credentialsEpoch,
  };
}

export function toToken(doc: TokenDoc): Token {
  return {
    id: doc._id,
    userId: doc.userId,
    type: doc.type,
    name: doc.name,
    hash: doc.hash,
    createdAt: new Date(doc.createdAt),
    expiresAt: doc.expiresAt ? new Date(doc.expiresAt) : null,
    credentialsEpoch: doc.credentialsEpoch ?? (doc.type === 'session' ? 0 : null),
  };
}

@injectable()
export class MongoTokenRepository implements TokenRepository {
  private readonly tokens: Collection<TokenDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.tokens = db.collection<TokenDoc>(COLLECTIONS.tokens);
  }

  async insert(token: Token): Promise<void> {
    await this.tokens.insertOne(toDoc(token));
  }

  async findByHash(hash: string): Promise<Token | null> {
    const doc = await this.tokens.findOne({ hash });
    return doc ? toToken(doc) : null;
  }

  async findById(id: string): Promise<Token | null> {
    const doc = await this.tokens.findOne({ _id: id });
    return doc ? toToken(doc) : null;
  }

  async listByUser(userId: string, type: TokenType | readonly TokenType[]): Promise<Token[]> {
    return (await this.tokens.find({ userId, type: typeFilter(type) }).sort(BY_CREATED).toArray()).map(toToken);
  }

  /** Served by the user_type_created index. */
  async pageByUser(
    userId: string,
    type: TokenType | readonly TokenType[],
    after: CreatedKey | null,
    limit: number,
  ): Promise<Token[]> {
    // limit(0) would mean "no limit" to MongoDB.
    if (!(limit > 0)) return [];
    const filter = { userId, type: typeFilter(type), ...afterCreated(after) } as Filter<TokenDoc>;
    return (await this.tokens.find(filter).sort(BY_CREATED).limit(limit).toArray()).map(toToken);
  }

  async delete(id: string): Promise<boolean> {
    return (await this.tokens.deleteOne({ _id: id })).deletedCount === 1;
  }

  async deleteByUser(userId: string, type?: TokenType, keep?: string): Promise<number> {
    const filter: Filter<TokenDoc> = { userId };
    if (type !== undefined) filter.type = type;
    if (keep !== undefined) filter._id = { $ne: keep };
    return (await this.tokens.deleteMany(filter)).deletedCount;
  }

  async extendExpiry(id: string, expiresAt: Date, now: Date): Promise<boolean> {
    const filter: Filter<TokenDoc> = { _id: id, expiresAt: { $gt: new Date(now), $lt: new Date(expiresAt) } };
    return (await this.tokens.updateOne(filter, { $set: { expiresAt: new Date(expiresAt) } })).modifiedCount === 1;
  }

  /** A session from before epochs stores none and counts as epoch 0, so `from` 0 matches it too. */
  async moveEpoch(id: string, from: number, to: number): Promise<boolean> {
    const epoch: Filter<TokenDoc> =
      from === 0 ? { $or: [{ credentialsEpoch: 0 }, { credentialsEpoch: { $exists: false } }] } : { credentialsEpoch: from };
    const filter: Filter<TokenDoc> = { _id: id, type: 'session', ...epoch };
    return (await this.tokens.updateOne(filter, { $set: { credentialsEpoch: to } })).modifiedCount === 1;
  }
}

/** One type, or any of several (the index on user, type and creation still serves it, merging the types' runs). */
function typeFilter(type: TokenType | readonly TokenType[]): TokenType | { $in: TokenType[] } {
  return typeof type === 'string' ? type : { $in: [...type] };
}
