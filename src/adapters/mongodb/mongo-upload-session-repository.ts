import { inject, injectable } from 'inversify';
import type { Collection, Db } from 'mongodb';
import {
  MAX_UPLOAD_PARTS,
  assertCut,
  type UploadPart,
  type UploadSession,
  type UploadSessionRepository,
} from '../../application/ports/index.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';

type UploadDoc = Omit<UploadSession, 'id'> & { _id: string };

function toDoc({ id, ...rest }: UploadSession): UploadDoc {
  return { _id: id, ...rest, parts: rest.parts.map((part) => ({ key: part.key, size: part.size })) };
}

function toSession({ _id, ...rest }: UploadDoc): UploadSession {
  return {
    id: _id,
    ...rest,
    offset: Number(rest.offset),
    length: Number(rest.length),
    parts: rest.parts.map((part) => ({ key: part.key, size: Number(part.size) })),
    share: rest.share ? { ...rest.share } : null,
  };
}

/** Offsets move by one conditional update each (`offset` as expected), so concurrent appends cannot both land. */
@injectable()
export class MongoUploadSessionRepository implements UploadSessionRepository {
  private readonly uploads: Collection<UploadDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.uploads = db.collection<UploadDoc>(COLLECTIONS.uploads);
  }

  async insert(session: UploadSession): Promise<void> {
    await this.uploads.insertOne(toDoc(session));
  }

  async findById(id: string): Promise<UploadSession | null> {
    const doc = await this.uploads.findOne({ _id: id });
    return doc ? toSession(doc) : null;
  }

  async findByPart(key: string): Promise<UploadSession | null> {
    const doc = await this.uploads.findOne({ 'parts.key': key });
    return doc ? toSession(doc) : null;
  }

  async append(id: string, from: number, part: UploadPart, expiresAt: Date, now: Date): Promise<UploadSession | null> {
    const doc = await this.uploads.findOneAndUpdate(
      {
        _id: id,
        offset: from,
        expiresAt: { $gt: now },
        length: { $gte: from + part.size },
        [`parts.${MAX_UPLOAD_PARTS - 1}`]: { $exists: false },
      },
      {
        $inc: { offset: part.size },
        $push: { parts: { key: part.key, size: part.size } },
        $set: { expiresAt },
      },
      { returnDocument: 'after' },
    );
    return doc ? toSession(doc) : null;
  }

  async cutBack(id: string, seen: readonly UploadPart[], keep: number): Promise<UploadSession | null> {
    assertCut(seen, keep);
    const kept = seen.slice(0, keep).map((part) => ({ key: part.key, size: part.size }));
    const doc = await this.uploads.findOneAndUpdate(
      {
        _id: id,
        [`parts.${seen.length - 1}.key`]: seen[seen.length - 1]!.key,
        [`parts.${seen.length}`]: { $exists: false },
      },
      { $set: { parts: kept, offset: kept.reduce((sum, part) => sum + part.size, 0) } },
      { returnDocument: 'after' },
    );
    return doc ? toSession(doc) : null;
  }

  async take(id: string): Promise<UploadSession | null> {
    const doc = await this.uploads.findOneAndDelete({ _id: id });
    return doc ? toSession(doc) : null;
  }

  async takeExpired(id: string, now: Date): Promise<UploadSession | null> {
    const doc = await this.uploads.findOneAndDelete({ _id: id, expiresAt: { $lte: now } });
    return doc ? toSession(doc) : null;
  }

  async idsByOwner(ownerId: string): Promise<string[]> {
    const docs = await this.uploads.find({ ownerId }, { projection: { _id: 1 } }).toArray();
    return docs.map((doc) => doc._id);
  }

  async expiredIds(now: Date, limit: number): Promise<string[]> {
    const docs = await this.uploads
      .find({ expiresAt: { $lte: now } }, { projection: { _id: 1 } })
      .limit(limit)
      .toArray();
    return docs.map((doc) => doc._id);
  }

  async referencedPartKeys(blobKeys: readonly string[]): Promise<Set<string>> {
    if (blobKeys.length === 0) return new Set();
    const wanted = new Set(blobKeys);
    const docs = this.uploads.find({ 'parts.key': { $in: [...wanted] } }, { projection: { parts: 1 } });
    const found = new Set<string>();
    for await (const doc of docs) for (const part of doc.parts) if (wanted.has(part.key)) found.add(part.key);
    return found;
  }
}
