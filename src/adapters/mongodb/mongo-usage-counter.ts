import { inject, injectable } from 'inversify';
import { Double, type Collection, type Db } from 'mongodb';
import { LIMIT_KINDS, ZERO_USAGE, type LimitKind, type Usage } from '../../domain/index.js';
import type { UsageCounter } from '../../application/ports/index.js';
import { isDuplicateKey } from './duplicate-key.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';

/**
 * One document per user. Counters are stored as doubles: storage sums beyond 2^31 bytes would otherwise depend on
 * the server promoting int32 on overflow, and doubles are exact far beyond any realistic byte count.
 */
type UsageDoc = { _id: string } & Record<LimitKind, number | Double>;

function toDoc(userId: string, usage: Usage): UsageDoc {
  const doc = { _id: userId } as UsageDoc;
  for (const kind of LIMIT_KINDS) doc[kind] = new Double(usage[kind]);
  return doc;
}

function toUsage(doc: UsageDoc | null): Usage {
  const usage = { ...ZERO_USAGE };
  if (doc) for (const kind of LIMIT_KINDS) usage[kind] = Number(doc[kind] ?? 0);
  return usage;
}

/** Every change is one conditional update on the server: the check and the change cannot be interleaved. */
@injectable()
export class MongoUsageCounter implements UsageCounter {
  private readonly usage: Collection<UsageDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.usage = db.collection<UsageDoc>(COLLECTIONS.usage);
  }

  /**
   * The conditional $inc cannot upsert (a miss on an existing, full counter would try to insert a duplicate), so a
   * first miss checks whether the document is there, creates the zero document if not, and tries once more.
   */
  async reserve(userId: string, kind: LimitKind, amount: number, max: number): Promise<boolean> {
    assertAmount(amount);
    if (await this.tryIncrement(userId, kind, amount, max)) return true;
    if (await this.usage.findOne({ _id: userId }, { projection: { _id: 1 } })) return false;
    try {
      await this.usage.insertOne(toDoc(userId, ZERO_USAGE));
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    return this.tryIncrement(userId, kind, amount, max);
  }

  /**
   * Without pipeline updates (which not every server speaks) the floor at zero takes two conditional steps: the
   * usual decrement when the counter holds enough, else zeroing when it holds less (or nothing). A concurrent change between
   * them makes both miss; the loop then looks again, and stops once the document is gone.
   */
  async release(userId: string, kind: LimitKind, amount: number): Promise<void> {
    assertAmount(amount);
    if (amount === 0) return;
    for (;;) {
      const dec = await this.usage.updateOne(
        { _id: userId, [kind]: { $gte: amount } },
        { $inc: { [kind]: new Double(-amount) } },
      );
      if (dec.matchedCount === 1) return;
      const zero = await this.usage.updateOne(
        { _id: userId, [kind]: { $not: { $gte: amount } } },
        { $set: { [kind]: new Double(0) } },
      );
      if (zero.matchedCount === 1) return;
      if (!(await this.usage.findOne({ _id: userId }, { projection: { _id: 1 } }))) return;
    }
  }

  async get(userId: string): Promise<Usage> {
    return toUsage(await this.usage.findOne({ _id: userId }));
  }

  async set(userId: string, usage: Usage): Promise<void> {
    await this.usage.replaceOne({ _id: userId }, toDoc(userId, usage), { upsert: true });
  }

  async remove(userId: string): Promise<void> {
    await this.usage.deleteOne({ _id: userId });
  }

  private async tryIncrement(userId: string, kind: LimitKind, amount: number, max: number): Promise<boolean> {
    const { matchedCount } = await this.usage.updateOne(
      { _id: userId, [kind]: { $lte: max - amount } },
      { $inc: { [kind]: new Double(amount) } },
    );
    return matchedCount === 1;
  }
}

/** A negative or fractional amount is a bug in the caller: it would let a counter run backwards past its floor. */
function assertAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`Invalid usage amount: ${amount}`);
}
