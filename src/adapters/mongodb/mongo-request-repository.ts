import { inject, injectable } from 'inversify';
import type { Collection, Db, Document, Filter } from 'mongodb';
import type { FileRequest, RequestRoom } from '../../domain/index.js';
import { HOLD_ID, type CreatedKey, type RequestPatch, type RequestRepository } from '../../application/ports/index.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';
import { afterCreated, BY_CREATED } from './named-query.js';

/**
 * `held`: the room each unfinished upload holds, under its hold's id; `holds`: those ids, indexed, so the sweep of gone
 * instances finds the request from the hold alone.
 */
type RequestDoc = Omit<FileRequest, 'id'> & { _id: string; held?: Record<string, RequestRoom>; holds?: string[] };

const toDoc = ({ id, ...rest }: FileRequest): RequestDoc => ({ _id: id, ...rest });

function toRequest({ _id, ...doc }: RequestDoc): FileRequest {
  return {
    id: _id,
    ownerId: doc.ownerId,
    ownerName: doc.ownerName,
    name: doc.name,
    message: doc.message ?? null,
    folderId: doc.folderId,
    passwordHash: doc.passwordHash ?? null,
    expiresAt: doc.expiresAt ? new Date(doc.expiresAt) : null,
    maxFiles: doc.maxFiles ?? null,
    maxBytes: doc.maxBytes ?? null,
    maxFileBytes: doc.maxFileBytes ?? null,
    allowedTypes: [...(doc.allowedTypes ?? [])],
    requireName: doc.requireName === true,
    closed: doc.closed === true,
    files: doc.files,
    bytes: doc.bytes,
    createdAt: new Date(doc.createdAt),
    updatedAt: new Date(doc.updatedAt),
  };
}

/** The field's value, a missing field read as null (as toRequest reads it). */
const orNull = (field: string): Document => ({ $ifNull: [`$${field}`, null] });

/** `field + amount <= max` unless the amount is nothing or there is no maximum, as an aggregation expression. */
const within = (field: 'files' | 'bytes', max: 'maxFiles' | 'maxBytes', amount: number): Document =>
  amount <= 0
    ? { $literal: true }
    : { $or: [{ $eq: [orNull(max), null] }, { $lte: [{ $add: [{ $ifNull: [`$${field}`, 0] }, amount] }, `$${max}`] }] };

/** Hold ids become field names here, so they are checked as the usage counters check them. */
function heldField(hold: string): string {
  if (!HOLD_ID.test(hold)) throw new Error(`Invalid hold id: ${hold}`);
  return `held.${hold}`;
}

@injectable()
export class MongoRequestRepository implements RequestRepository {
  private readonly requests: Collection<RequestDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.requests = db.collection<RequestDoc>(COLLECTIONS.requests);
  }

  async insert(request: FileRequest): Promise<void> {
    await this.requests.insertOne(toDoc(request));
  }

  async findById(id: string): Promise<FileRequest | null> {
    const doc = await this.requests.findOne({ _id: id });
    return doc ? toRequest(doc) : null;
  }

  /** Served by the owner_created index. */
  async pageByOwner(ownerId: string, after: CreatedKey | null, limit: number): Promise<FileRequest[]> {
    if (!(limit > 0)) return [];
    const filter = { ownerId, ...afterCreated(after) } as Filter<RequestDoc>;
    return (await this.requests.find(filter).sort(BY_CREATED).limit(limit).toArray()).map(toRequest);
  }

  async listByOwner(ownerId: string): Promise<FileRequest[]> {
    return (await this.requests.find({ ownerId }).sort(BY_CREATED).toArray()).map(toRequest);
  }

  async update(id: string, patch: RequestPatch): Promise<FileRequest | null> {
    const set = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
    const doc = await this.requests.findOneAndUpdate({ _id: id }, { $set: set }, { returnDocument: 'after' });
    return doc ? toRequest(doc) : null;
  }

  async delete(id: string): Promise<FileRequest | null> {
    const doc = await this.requests.findOneAndDelete({ _id: id });
    return doc ? toRequest(doc) : null;
  }

  /**
   * One findOneAndUpdate whose filter holds every condition, so concurrent takes on any instances never overfill; the
   * same update adds the room to the hold's entry.
   */
  async takeRoom(id: string, room: RequestRoom, now: Date, hold: string): Promise<FileRequest | null> {
    const held = heldField(hold);
    const filter = {
      _id: id,
      closed: false,
      $expr: {
        $and: [
          { $or: [{ $eq: [orNull('expiresAt'), null] }, { $gt: ['$expiresAt', now] }] },
          within('files', 'maxFiles', room.files),
          within('bytes', 'maxBytes', room.bytes),
        ],
      },
    } as Filter<RequestDoc>;
    const doc = await this.requests.findOneAndUpdate(
      filter,
      {
        $inc: { files: room.files, bytes: room.bytes, [`${held}.files`]: room.files, [`${held}.bytes`]: room.bytes },
        $addToSet: { holds: hold },
      },
      { returnDocument: 'after' },
    );
    return doc ? toRequest(doc) : null;
  }

  /**
   * Found by the `holds` index: the entry is read, then one conditional update (only while the entry still holds what
   * was read) takes it away and each counter down by its amounts, so a second call matches nothing. Plain operators,
   * no pipeline update: every server speaking the protocol honours them.
   */
  async giveBackHeld(hold: string): Promise<boolean> {
    const held = heldField(hold);
    for (;;) {
      const doc = await this.requests.findOne({ holds: hold }, { projection: { held: 1 } });
      if (!doc) return false;
      const files = doc.held?.[hold]?.files ?? 0;
      const bytes = doc.held?.[hold]?.bytes ?? 0;
      const entry = doc.held?.[hold] ? { [`${held}.files`]: files, [`${held}.bytes`]: bytes } : { [held]: { $exists: false } };
      const { modifiedCount } = await this.requests.updateOne({ _id: doc._id, holds: hold, ...entry } as Filter<RequestDoc>, {
        $inc: { files: -files, bytes: -bytes },
        $unset: { [held]: '' },
        $pull: { holds: hold },
      });
      if (modifiedCount === 1) return true;
      // The entry grew meanwhile (the upload still taking room) or went: read it again.
    }
  }

  async settleHeld(hold: string): Promise<void> {
    await this.requests.updateOne({ holds: hold }, { $unset: { [heldField(hold)]: '' }, $pull: { holds: hold } });
  }
}
