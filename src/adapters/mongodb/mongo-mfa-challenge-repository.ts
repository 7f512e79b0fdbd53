import { inject, injectable } from 'inversify';
import type { Collection, Db } from 'mongodb';
import type { MfaChallenge, MfaChallengeRepository } from '../../application/ports/index.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';

interface MfaChallengeDoc {
  /** The mfaToken's digest. */
  _id: string;
  userId: string;
  credentialsEpoch: number;
  /** A TTL index removes expired challenges; until it runs, the filters on expiresAt refuse them. */
  expiresAt: Date;
}

const toChallenge = (doc: MfaChallengeDoc): MfaChallenge => ({
  hash: doc._id,
  userId: doc.userId,
  credentialsEpoch: doc.credentialsEpoch,
  expiresAt: new Date(doc.expiresAt),
});

@injectable()
export class MongoMfaChallengeRepository implements MfaChallengeRepository {
  private readonly docs: Collection<MfaChallengeDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.docs = db.collection<MfaChallengeDoc>(COLLECTIONS.mfaChallenges);
  }

  async insert(c: MfaChallenge): Promise<void> {
    await this.docs.insertOne({
      _id: c.hash,
      userId: c.userId,
      credentialsEpoch: c.credentialsEpoch,
      expiresAt: new Date(c.expiresAt),
    });
  }

  async find(hash: string, now: Date): Promise<MfaChallenge | null> {
    const doc = await this.docs.findOne({ _id: hash, expiresAt: { $gt: new Date(now) } });
    return doc ? toChallenge(doc) : null;
  }

  async take(hash: string, now: Date): Promise<boolean> {
    return (await this.docs.deleteOne({ _id: hash, expiresAt: { $gt: new Date(now) } })).deletedCount === 1;
  }
}
