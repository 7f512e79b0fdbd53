import { inject, injectable } from 'inversify';
import type { Collection, Db } from 'mongodb';
import type {
  SecondFactorRecord,
  SecondFactorRepository,
  TotpConfirmation,
} from '../../application/ports/index.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';

interface SecondFactorDoc {
  /** The user's id: one record per user. */
  _id: string;
  totpSecret: string | null;
  pendingTotpSecret: string | null;
  lastTotpStep: number | null;
  recoveryCodeHashes: string[];
  /** Absent on records written before passkeys: none. */
  passkeyCount?: number;
  updatedAt: Date;
}

function toRecord(doc: SecondFactorDoc): SecondFactorRecord {
  return {
    userId: doc._id,
    totpSecret: doc.totpSecret ?? null,
    pendingTotpSecret: doc.pendingTotpSecret ?? null,
    lastTotpStep: doc.lastTotpStep ?? null,
    recoveryCodeHashes: [...(doc.recoveryCodeHashes ?? [])],
    passkeyCount: doc.passkeyCount ?? 0,
    updatedAt: new Date(doc.updatedAt),
  };
}

/** Every change is one conditional updateOne: its filter is the check, so two instances cannot both pass it. */
@injectable()
export class MongoSecondFactorRepository implements SecondFactorRepository {
  private readonly docs: Collection<SecondFactorDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.docs = db.collection<SecondFactorDoc>(COLLECTIONS.secondFactors);
  }

  async find(userId: string): Promise<SecondFactorRecord | null> {
    const doc = await this.docs.findOne({ _id: userId });
    return doc ? toRecord(doc) : null;
  }

  async startTotp(userId: string, secret: string, updatedAt: Date): Promise<boolean> {
    try {
      // The upsert creates the record; with TOTP on the filter misses and the upsert collides with _id (11000).
      await this.docs.updateOne(
        { _id: userId, totpSecret: null },
        {
          $set: { pendingTotpSecret: secret, updatedAt: new Date(updatedAt) },
          $setOnInsert: { lastTotpStep: null, recoveryCodeHashes: [], passkeyCount: 0 },
        },
        { upsert: true },
      );
      return true;
    } catch (err) {
      if ((err as { code?: number }).code === 11000) return false;
      throw err;
    }
  }

  async confirmTotp(userId: string, c: TotpConfirmation): Promise<boolean> {
    const result = await this.docs.updateOne(
      { _id: userId, totpSecret: null, pendingTotpSecret: c.secret },
      {
        $set: {
          totpSecret: c.secret,
          pendingTotpSecret: null,
          lastTotpStep: c.step,
          recoveryCodeHashes: [...c.recoveryCodeHashes],
          updatedAt: new Date(c.updatedAt),
        },
      },
    );
    return result.modifiedCount === 1;
  }

  async useTotpStep(userId: string, secret: string, step: number): Promise<boolean> {
    const result = await this.docs.updateOne(
      { _id: userId, totpSecret: secret, $or: [{ lastTotpStep: null }, { lastTotpStep: { $lt: step } }] },
      { $set: { lastTotpStep: step } },
    );
    return result.modifiedCount === 1;
  }

  async useRecoveryCode(userId: string, hash: string): Promise<boolean> {
    const result = await this.docs.updateOne(
      { _id: userId, totpSecret: { $ne: null }, recoveryCodeHashes: hash },
      { $pull: { recoveryCodeHashes: hash } },
    );
    return result.modifiedCount === 1;
  }

  async replaceRecoveryCodes(userId: string, secret: string, hashes: string[], updatedAt: Date): Promise<boolean> {
    const result = await this.docs.updateOne(
      { _id: userId, totpSecret: secret },
      { $set: { recoveryCodeHashes: [...hashes], updatedAt: new Date(updatedAt) } },
    );
    return result.matchedCount === 1;
  }

  async turnOffTotp(userId: string, secret: string, updatedAt: Date): Promise<boolean> {
    const result = await this.docs.updateOne(
      { _id: userId, totpSecret: secret },
      {
        $set: {
          totpSecret: null,
          pendingTotpSecret: null,
          lastTotpStep: null,
          recoveryCodeHashes: [],
          updatedAt: new Date(updatedAt),
        },
      },
    );
    return result.modifiedCount === 1;
  }

  async addPasskeySlot(userId: string, max: number, updatedAt: Date): Promise<boolean> {
    if (max < 1) return false;
    const below = { _id: userId, $or: [{ passkeyCount: { $lt: max } }, { passkeyCount: { $exists: false } }] };
    const count = { $inc: { passkeyCount: 1 }, $set: { updatedAt: new Date(updatedAt) } };
    try {
      await this.docs.updateOne(
        below,
        { ...count, $setOnInsert: { totpSecret: null, pendingTotpSecret: null, lastTotpStep: null, recoveryCodeHashes: [] } },
        { upsert: true },
      );
      return true;
    } catch (err) {
      if ((err as { code?: number }).code !== 11000) throw err;
    }
    // The record exists: at the maximum the filter missed it; or a racing upsert created it first (the server does
    // not retry an upsert whose filter is more than equalities). Either way the plain conditional update decides.
    return (await this.docs.updateOne(below, count)).modifiedCount === 1;
  }

  async releasePasskeySlot(userId: string, updatedAt: Date): Promise<boolean> {
    const result = await this.docs.updateOne(
      { _id: userId, passkeyCount: { $gt: 0 } },
      { $inc: { passkeyCount: -1 }, $set: { updatedAt: new Date(updatedAt) } },
    );
    return result.modifiedCount === 1;
  }

  async deleteByUser(userId: string): Promise<boolean> {
    return (await this.docs.deleteOne({ _id: userId })).deletedCount === 1;
  }
}
