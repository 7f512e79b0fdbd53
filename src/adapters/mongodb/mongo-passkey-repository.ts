import { inject, injectable } from 'inversify';
import type { Collection, Db } from 'mongodb';
import type { Passkey, PasskeyRepository } from '../../application/ports/index.js';
import { isDuplicateKey } from './duplicate-key.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';

interface PasskeyDoc {
  _id: string;
  userId: string;
  /** Unique index `credential_unique`: one credential belongs to one passkey of one user. */
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

const toPasskey = (doc: PasskeyDoc): Passkey => ({
  id: doc._id,
  userId: doc.userId,
  credentialId: doc.credentialId,
  publicKey: doc.publicKey,
  counter: doc.counter,
  transports: [...doc.transports],
  name: doc.name,
  createdAt: new Date(doc.createdAt),
  lastUsedAt: doc.lastUsedAt === null ? null : new Date(doc.lastUsedAt),
});

@injectable()
export class MongoPasskeyRepository implements PasskeyRepository {
  private readonly docs: Collection<PasskeyDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.docs = db.collection<PasskeyDoc>(COLLECTIONS.passkeys);
  }

  async insert(p: Passkey): Promise<boolean> {
    try {
      await this.docs.insertOne({
        _id: p.id,
        userId: p.userId,
        credentialId: p.credentialId,
        publicKey: p.publicKey,
        counter: p.counter,
        transports: [...p.transports],
        name: p.name,
        createdAt: new Date(p.createdAt),
        lastUsedAt: p.lastUsedAt === null ? null : new Date(p.lastUsedAt),
      });
      return true;
    } catch (err) {
      // Only the credential's index may refuse: an _id collision is a bug of the id generator, not an answer.
      if (isDuplicateKey(err) && (err as { keyPattern?: Record<string, unknown> }).keyPattern?.['credentialId']) {
        return false;
      }
      throw err;
    }
  }

  async listByUser(userId: string): Promise<Passkey[]> {
    const docs = await this.docs.find({ userId }).sort({ createdAt: 1, _id: 1 }).toArray();
    return docs.map(toPasskey);
  }

  async findByCredentialId(credentialId: string): Promise<Passkey | null> {
    const doc = await this.docs.findOne({ credentialId });
    return doc ? toPasskey(doc) : null;
  }

  async rename(userId: string, id: string, name: string): Promise<Passkey | null> {
    const doc = await this.docs.findOneAndUpdate({ _id: id, userId }, { $set: { name } }, { returnDocument: 'after' });
    return doc ? toPasskey(doc) : null;
  }

  async recordUse(id: string, counter: number, newCounter: number, at: Date): Promise<boolean> {
    const result = await this.docs.updateOne(
      { _id: id, counter },
      { $set: { counter: newCounter, lastUsedAt: new Date(at) } },
    );
    return result.matchedCount === 1;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    return (await this.docs.deleteOne({ _id: id, userId })).deletedCount === 1;
  }

  async deleteByUser(userId: string): Promise<number> {
    return (await this.docs.deleteMany({ userId })).deletedCount;
  }
}
