import { inject, injectable } from 'inversify';
import type { Collection, Db } from 'mongodb';
import type { PendingSignIn, PendingSignInRepository } from '../../application/ports/index.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';

interface PendingSignInDoc {
  /** The state's digest. */
  _id: string;
  browserHash: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
  next: string;
  intent: 'login' | 'link';
  userId: string | null;
  /** A TTL index removes expired sign-ins; until it runs, the filter on expiresAt refuses them. */
  expiresAt: Date;
}

@injectable()
export class MongoPendingSignInRepository implements PendingSignInRepository {
  private readonly docs: Collection<PendingSignInDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.docs = db.collection<PendingSignInDoc>(COLLECTIONS.pendingSignIns);
  }

  async insert({ stateHash, expiresAt, ...rest }: PendingSignIn): Promise<void> {
    await this.docs.insertOne({ _id: stateHash, ...rest, expiresAt: new Date(expiresAt) });
  }

  /** One findOneAndDelete: of callers racing for a state, one gets it, on any instance. */
  async take(stateHash: string, now: Date): Promise<PendingSignIn | null> {
    const doc = await this.docs.findOneAndDelete({ _id: stateHash, expiresAt: { $gt: new Date(now) } });
    if (!doc) return null;
    const { _id, expiresAt, ...rest } = doc;
    return { stateHash: _id, ...rest, expiresAt: new Date(expiresAt) };
  }
}
