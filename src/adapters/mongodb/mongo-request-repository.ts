import { inject, injectable } from 'inversify';
import type { Collection, Db, Document, Filter } from 'mongodb';
import type { FileRequest, RequestRoom } from '../../domain/index.js';
import type { CreatedKey, RequestPatch, RequestRepository } from '../../application/ports/index.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';
import { afterCreated, BY_CREATED } from './named-query.js';

type RequestDoc = Omit<FileRequest, 'id'> & { _id: string };

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

/** `field + amount <= max` unless the amount is nothing or there is no maximum, as an aggregation expression. */
const within = (field: 'files' | 'bytes', max: 'maxFiles' | 'maxBytes', amount: number): Document =>
  amount <= 0 ? { $literal: true } : { $or: [{ $eq: [`$${max}`, null] }, { $lte: [{ $add: [`$${field}`, amount] }, `$${max}`] }] };

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

  /** One findOneAndUpdate whose filter holds every condition, so concurrent takes on any instances never overfill. */
  async takeRoom(id: string, room: RequestRoom, now: Date): Promise<FileRequest | null> {
    const filter = {
      _id: id,
      closed: false,
      $expr: {
        $and: [
          { $or: [{ $eq: ['$expiresAt', null] }, { $gt: ['$expiresAt', now] }] },
          within('files', 'maxFiles', room.files),
          within('bytes', 'maxBytes', room.bytes),
        ],
      },
    } as Filter<RequestDoc>;
    const doc = await this.requests.findOneAndUpdate(
      filter,
      { $inc: { files: room.files, bytes: room.bytes } },
      { returnDocument: 'after' },
    );
    return doc ? toRequest(doc) : null;
  }

  /**
   * Each counter goes down by its amount, never below zero: one conditional $inc while both counters hold the amounts
   * (always, unless something gave back twice); else a compare-and-set from what was read, retried until it lands.
   */
  async giveBack(id: string, room: RequestRoom): Promise<void> {
    const { matchedCount } = await this.requests.updateOne(
      { _id: id, files: { $gte: room.files }, bytes: { $gte: room.bytes } },
      { $inc: { files: -room.files, bytes: -room.bytes } },
    );
    if (matchedCount === 1) return;
    for (;;) {
      const doc = await this.requests.findOne({ _id: id }, { projection: { files: 1, bytes: 1 } });
      if (!doc) return;
      const { matchedCount: set } = await this.requests.updateOne(
        { _id: id, files: doc.files, bytes: doc.bytes },
        { $set: { files: Math.max(0, doc.files - room.files), bytes: Math.max(0, doc.bytes - room.bytes) } },
      );
      if (set === 1) return;
    }
  }
}
