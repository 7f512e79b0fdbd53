import { inject, injectable } from 'inversify';
import type { Collection, Db } from 'mongodb';
import type { ItemProperty, WriteLock } from '../../domain/index.js';
import type { LockStore, PropertyStore, Versioned } from '../../application/ports/index.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';
import { isDuplicateKey } from './duplicate-key.js';

interface VersionedDoc<T> {
  /** The user's id: one record per user. */
  _id: string;
  version: number;
  value: T;
}

/**
 * One document per user. A swap is one conditional write whose filter is the version it was computed from: the
 * first record is an insert (a second insert of the same user collides on _id), every later one an update.
 */
class VersionedDocs<T> {
  private readonly docs: Collection<VersionedDoc<T>>;

  constructor(
    db: Db,
    name: string,
    private readonly empty: () => T,
    private readonly revive: (value: T) => T,
  ) {
    this.docs = db.collection<VersionedDoc<T>>(name);
  }

  async read(userId: string): Promise<Versioned<T>> {
    const doc = await this.docs.findOne({ _id: userId });
    return doc ? { version: doc.version, value: this.revive(doc.value) } : { version: 0, value: this.empty() };
  }

  async swap(userId: string, version: number, next: T): Promise<boolean> {
    if (version === 0) {
      try {
        await this.docs.insertOne({ _id: userId, version: 1, value: next });
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    }
    const result = await this.docs.updateOne({ _id: userId, version }, { $set: { version: version + 1, value: next } });
    return result.matchedCount === 1;
  }

  async remove(userId: string): Promise<void> {
    await this.docs.deleteOne({ _id: userId });
  }
}

@injectable()
export class MongoPropertyStore extends VersionedDocs<Record<string, ItemProperty[]>> implements PropertyStore {
  constructor(@inject(MongoDb) db: Db) {
    // Item ids are the keys: base64url, never a '$' or '.', so they are safe as field names.
    super(db, COLLECTIONS.itemProperties, () => ({}), (value) => value);
  }
}

@injectable()
export class MongoLockStore extends VersionedDocs<WriteLock[]> implements LockStore {
  constructor(@inject(MongoDb) db: Db) {
    super(db, COLLECTIONS.writeLocks, () => [], (locks) => locks.map((lock) => ({ ...lock, expiresAt: new Date(lock.expiresAt) })));
  }
}
