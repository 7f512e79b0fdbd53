import { inject, injectable } from 'inversify';
import type { Collection, Db } from 'mongodb';
import type { Caller, Callers } from '../../application/ports/index.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';
import { toToken, type TokenDoc } from './mongo-token-repository.js';
import { toUser, type UserDoc } from './mongo-user-repository.js';

/** The token and its user in one aggregate: a $lookup on the user's `_id`, so one round trip per request. */
@injectable()
export class MongoCallers implements Callers {
  private readonly tokens: Collection<TokenDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.tokens = db.collection<TokenDoc>(COLLECTIONS.tokens);
  }

  async findByTokenHash(hash: string): Promise<Caller | null> {
    const [found] = await this.tokens
      .aggregate<TokenDoc & { user: UserDoc[] }>([
        { $match: { hash } },
        { $limit: 1 },
        { $lookup: { from: COLLECTIONS.users, localField: 'userId', foreignField: '_id', as: 'user' } },
      ])
      .toArray();
    if (!found) return null;
    const { user, ...token } = found;
    return { token: toToken(token), user: user[0] ? toUser(user[0]) : null };
  }
}
