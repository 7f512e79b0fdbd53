import type { Collection, Db } from 'mongodb';
import type { AdminCount } from '../../application/ports/index.js';
import { isDuplicateKey } from './duplicate-key.js';
import { COLLECTIONS } from './mongo-database.js';

interface CounterDoc {
  _id: string;
  count: number;
}

const ADMINS = 'admins';

/**
 * The deployment-wide admin count, one document, so "another admin remains" is one conditional update on any number
 * of instances without transactions. Every removal of an admin takes a seat (the count goes down only while above 1)
 * before its write and every new admin adds one after its write, so a crash between the two leaves the count below
 * the admins that exist: demotions refused too early, never allowed too late.
 */
export class AdminSeats {
  private readonly counters: Collection<CounterDoc>;

  constructor(
    db: Db,
    private readonly countAdmins: () => Promise<number>,
  ) {
    this.counters = db.collection<CounterDoc>(COLLECTIONS.counters);
  }

  /**
   * Made from the records the first time it is needed (a database from before the count). Every caller ensures it
   * before its own write, so no admin change can fall between the counting and the insert and be counted twice.
   */
  async ensure(): Promise<void> {
    if (await this.counters.findOne({ _id: ADMINS }, { projection: { _id: 1 } })) return;
    const count = await this.countAdmins();
    try {
      await this.counters.updateOne({ _id: ADMINS }, { $setOnInsert: { count } }, { upsert: true });
    } catch (err) {
      // Another instance made it at the same moment, from the same records.
      if (!isDuplicateKey(err)) throw err;
    }
  }

  /** One admin fewer, only while another remains; false leaves the count as it was. */
  async take(): Promise<boolean> {
    await this.ensure();
    const taken = await this.counters.updateOne({ _id: ADMINS, count: { $gt: 1 } }, { $inc: { count: -1 } });
    return taken.modifiedCount === 1;
  }

  /** A taken seat whose write did not happen, or an admin just made. */
  async add(): Promise<void> {
    await this.counters.updateOne({ _id: ADMINS }, { $inc: { count: 1 } });
  }

  async check(fix: boolean): Promise<AdminCount> {
    const actual = await this.countAdmins();
    const doc = await this.counters.findOne({ _id: ADMINS });
    // An absent count is made from the records on first use, so it cannot be wrong yet.
    const stored = doc?.count ?? actual;
    if (fix && stored !== actual) {
      await this.counters.updateOne({ _id: ADMINS }, { $set: { count: actual } }, { upsert: true });
    }
    return { stored, actual };
  }
}
