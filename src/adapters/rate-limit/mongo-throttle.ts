import { inject, injectable } from 'inversify';
import type { Collection, Db } from 'mongodb';
import { RateLimiterMongo, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { GuessCounters, Tally, ThrottleRule } from '../../application/ports/throttle.js';
import { LimiterThrottle, limiterOptions } from './limiter-throttle.js';
import { MongoGuesses, type GuessDoc } from './mongo-guesses.js';

export const MongoThrottleOptions = Symbol('MongoThrottleOptions');
export interface MongoThrottleOptions {
  db: Db;
  /** Default `throttle`. */
  collection?: string;
}

/** rate-limiter-flexible's document: one per key, removed by a TTL index once `expire` has passed. */
interface LimiterDoc {
  key: string;
  points: number;
  expire: Date | null;
}

/**
 * Counters in MongoDB, so every instance of Coffer behind one database sees the same lockouts. Each change is one
 * atomic findOneAndUpdate (rate-limiter-flexible's upsert with $inc); forgiving is one deleteOne.
 */
@injectable()
export class MongoThrottle extends LimiterThrottle {
  private readonly collection: Collection<LimiterDoc>;
  private readonly guesses: MongoGuesses;
  private indexes: Promise<void> | null = null;

  constructor(@inject(MongoThrottleOptions) private readonly options: MongoThrottleOptions) {
    super();
    this.collection = options.db.collection<LimiterDoc>(this.collectionName());
    // In the same collection, under keys of their own: the same unique index and TTL index serve them.
    this.guesses = new MongoGuesses(options.db.collection<GuessDoc>(this.collectionName()));
  }

  override async tallyGuess(counters: GuessCounters): Promise<{ target: Tally; pair: Tally }> {
    await this.ready();
    return this.guesses.tally(counters);
  }

  override async uncountGuess(counters: GuessCounters): Promise<void> {
    await this.ready();
    await this.guesses.uncount(counters);
  }

  override async forgiveGuess(counters: GuessCounters): Promise<void> {
    await this.ready();
    await this.guesses.forgive(counters);
  }

  protected create(rule: ThrottleRule): RateLimiterAbstract {
    return new RateLimiterMongo({
      ...limiterOptions(rule),
      storeClient: this.options.db,
      tableName: this.collectionName(),
      // Created once below, where a failure reaches the caller instead of the console.
      disableIndexesCreation: true,
    });
  }

  protected override ready(): Promise<void> {
    this.indexes ??= this.createIndexes().catch((err: unknown) => {
      this.indexes = null;
      throw err;
    });
    return this.indexes;
  }

  private async createIndexes(): Promise<void> {
    await this.collection.createIndex({ expire: -1 }, { expireAfterSeconds: 0, name: 'expire_ttl' });
    await this.collection.createIndex({ key: 1 }, { unique: true, name: 'key_unique' });
  }

  private collectionName(): string {
    return this.options.collection ?? 'throttle';
  }
}
