import { inject, injectable } from 'inversify';
import type { Collection, Db } from 'mongodb';
import type {
  CeremonyPurpose,
  WebAuthnChallenge,
  WebAuthnChallengeRepository,
} from '../../application/ports/index.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';

interface WebAuthnChallengeDoc {
  /** The challenge itself (base64url). */
  _id: string;
  purpose: CeremonyPurpose;
  userId: string | null;
  mfaTokenHash: string | null;
  rpId: string;
  origin: string;
  /** A TTL index removes expired challenges; until it runs, the filter on expiresAt refuses them. */
  expiresAt: Date;
}

@injectable()
export class MongoWebAuthnChallengeRepository implements WebAuthnChallengeRepository {
  private readonly docs: Collection<WebAuthnChallengeDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.docs = db.collection<WebAuthnChallengeDoc>(COLLECTIONS.webauthnChallenges);
  }

  async insert(c: WebAuthnChallenge): Promise<void> {
    await this.docs.insertOne({
      _id: c.challenge,
      purpose: c.purpose,
      userId: c.userId,
      mfaTokenHash: c.mfaTokenHash,
      rpId: c.rp.id,
      origin: c.rp.origin,
      expiresAt: new Date(c.expiresAt),
    });
  }

  async take(challenge: string, purpose: CeremonyPurpose, now: Date): Promise<WebAuthnChallenge | null> {
    const doc = await this.docs.findOneAndDelete({ _id: challenge, purpose, expiresAt: { $gt: new Date(now) } });
    if (!doc) return null;
    return {
      challenge: doc._id,
      purpose: doc.purpose,
      userId: doc.userId,
      mfaTokenHash: doc.mfaTokenHash,
      rp: { id: doc.rpId, origin: doc.origin },
      expiresAt: new Date(doc.expiresAt),
    };
  }
}
