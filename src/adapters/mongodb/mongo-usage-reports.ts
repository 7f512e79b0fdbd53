import { inject, injectable } from 'inversify';
import type { Collection, Db } from 'mongodb';
import type { UsageReport, UsageReports } from '../../application/ports/index.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';
import { toUsage, type UsageDoc } from './mongo-usage-counter.js';
import { toUser, type UserDoc } from './mongo-user-repository.js';

/** The user and their counters in one aggregate: a $lookup from the user to the usage document of the same id. */
@injectable()
export class MongoUsageReports implements UsageReports {
  private readonly users: Collection<UserDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.users = db.collection<UserDoc>(COLLECTIONS.users);
  }

  async reportOf(userId: string): Promise<UsageReport | null> {
    const [found] = await this.users
      .aggregate<UserDoc & { usage: UsageDoc[] }>([
        { $match: { _id: userId } },
        { $lookup: { from: COLLECTIONS.usage, localField: '_id', foreignField: '_id', as: 'usage' } },
      ])
      .toArray();
    if (!found) return null;
    const { usage, ...user } = found;
    return { usage: toUsage(usage[0] ?? null), limits: toUser(user).limits };
  }
}
