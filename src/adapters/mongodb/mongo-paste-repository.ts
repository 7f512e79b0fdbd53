import { inject, injectable } from 'inversify';
import type { Collection, Db, Filter } from 'mongodb';
import type { Paste } from '../../domain/index.js';
import { REWRITES_KEPT, type CreatedKey, type PastePatch, type PasteRepository } from '../../application/ports/index.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';
import { afterCreated, BY_CREATED } from './named-query.js';

interface PasteDoc {
  _id: string;
  ownerId: string;
  name: string;
  type: string;
  content: string;
  size: number;
  /** Absent on pastes from before it was recorded: those read as a session's. */
  uploaderTokenId?: string | null;
  /** Only on end-to-end encrypted pastes. */
  encrypted?: boolean;
  createdAt: Date;
  updatedAt: Date;
  rewrites?: string[];
}

function toDoc(paste: Paste): PasteDoc {
  return {
    _id: paste.id,
    ownerId: paste.ownerId,
    name: paste.name,
    type: paste.type,
    content: paste.content,
    size: paste.size,
    uploaderTokenId: paste.uploaderTokenId,
    ...(paste.encrypted ? { encrypted: true } : {}),
    createdAt: new Date(paste.createdAt),
    updatedAt: new Date(paste.updatedAt),
    ...(paste.rewrites && { rewrites: [...paste.rewrites] }),
  };
}

function toPaste(doc: PasteDoc): Paste {
  return {
    id: doc._id,
    ownerId: doc.ownerId,
    name: doc.name,
    type: doc.type,
    content: doc.content,
    size: doc.size,
    uploaderTokenId: doc.uploaderTokenId ?? null,
    ...(doc.encrypted ? { encrypted: true } : {}),
    createdAt: new Date(doc.createdAt),
    updatedAt: new Date(doc.updatedAt),
    ...(doc.rewrites && { rewrites: [...doc.rewrites] }),
  };
}

@injectable()
export class MongoPasteRepository implements PasteRepository {
  private readonly pastes: Collection<PasteDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.pastes = db.collection<PasteDoc>(COLLECTIONS.pastes);
  }

  async insert(paste: Paste): Promise<void> {
    await this.pastes.insertOne(toDoc(paste));
  }

  async findById(id: string): Promise<Paste | null> {
    const doc = await this.pastes.findOne({ _id: id });
    return doc ? toPaste(doc) : null;
  }

  async listByOwner(ownerId: string): Promise<Paste[]> {
    return (await this.pastes.find({ ownerId }).sort(BY_CREATED).toArray()).map(toPaste);
  }

  /** Served by the owner_created index. */
  async pageByOwner(ownerId: string, after: CreatedKey | null, limit: number): Promise<Paste[]> {
    // limit(0) would mean "no limit" to MongoDB.
    if (!(limit > 0)) return [];
    const filter = { ownerId, ...afterCreated(after) } as Filter<PasteDoc>;
    return (await this.pastes.find(filter).sort(BY_CREATED).limit(limit).toArray()).map(toPaste);
  }

  async update(id: string, patch: PastePatch): Promise<Paste | null> {
    const set: Partial<PasteDoc> = { updatedAt: new Date(patch.updatedAt) };
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.type !== undefined) set.type = patch.type;
    if (patch.content !== undefined) set.content = patch.content;
    if (patch.size !== undefined) set.size = patch.size;
    const filter = patch.ifSize === undefined ? { _id: id } : { _id: id, size: patch.ifSize };
    // The rewrite's hold is named in the same write: whether it landed is known from the paste.
    const push = patch.rewrite === undefined ? {} : { $push: { rewrites: { $each: [patch.rewrite], $slice: -REWRITES_KEPT } } };
    const doc = await this.pastes.findOneAndUpdate(filter, { $set: set, ...push }, { returnDocument: 'after' });
    return doc ? toPaste(doc) : null;
  }

  async delete(id: string): Promise<Paste | null> {
    const doc = await this.pastes.findOneAndDelete({ _id: id });
    return doc ? toPaste(doc) : null;
  }
}
