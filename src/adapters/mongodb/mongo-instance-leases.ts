import { inject, injectable } from 'inversify';
import type { Collection, Db } from 'mongodb';
import type { InstanceLease, InstanceLeases } from '../../application/ports/index.js';
import { isDuplicateKey } from './duplicate-key.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';

interface LeaseDoc {
  _id: string;
  process: string;
  until: Date;
}

const toLease = (doc: LeaseDoc): InstanceLease => ({ id: doc._id, process: doc.process, until: doc.until });

/** One document per instance; a TTL index drops it a day after it ran out (a missing lease reads as run out). */
@injectable()
export class MongoInstanceLeases implements InstanceLeases {
  private readonly leases: Collection<LeaseDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.leases = db.collection<LeaseDoc>(COLLECTIONS.instanceLeases);
  }

  async take(lease: InstanceLease): Promise<boolean> {
    try {
      await this.leases.insertOne({ _id: lease.id, process: lease.process, until: lease.until });
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  async renew(id: string, until: Date, now: Date): Promise<boolean> {
    const { matchedCount } = await this.leases.updateOne({ _id: id, until: { $gt: now } }, { $set: { until } });
    return matchedCount === 1;
  }

  async end(id: string): Promise<void> {
    await this.leases.updateOne({ _id: id }, { $set: { until: new Date(0) } });
  }

  async find(ids: readonly string[]): Promise<InstanceLease[]> {
    if (ids.length === 0) return [];
    return (await this.leases.find({ _id: { $in: [...new Set(ids)] } }).toArray()).map(toLease);
  }
}
