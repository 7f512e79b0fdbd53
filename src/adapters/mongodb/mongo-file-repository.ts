import { inject, injectable } from 'inversify';
import type { Collection, Db, Filter } from 'mongodb';
import type { ReceivedFrom, StoredFile } from '../../domain/index.js';
import type { FilePatch, FileRepository, FolderRef, NameKey , ReplacedContent } from '../../application/ports/index.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';
import { afterName, BY_NAME, countByPlace, lowerName, namedFilter } from './named-query.js';

interface FileDoc {
  _id: string;
  ownerId: string;
  /** null at the owner's root, stored explicitly so `$in: [null]` never depends on a missing field. */
  folderId: string | null;
  name: string;
  nameLower: string;
  mime: string;
  size: number;
  blobKey: string;
  /** Absent on files from before it was recorded: those read as a session's. */
  uploaderTokenId?: string | null;
  /** Absent on files from before it was recorded: those are served without a charset, as they were. */
  charset?: 'utf-8' | null;
  /** Absent until the bytes are first replaced. */
  revision?: number;
  /** Only on files received through a file request. */
  request?: ReceivedFrom;
  /** Only on end-to-end encrypted files: their sealed metadata object. */
  encryptedMetadata?: string;
  createdAt: Date;
  updatedAt: Date;
  /** The removal that claimed the file (indexed, sparse): set once, so only that removal counts it. */
  claim?: string;
}

function toDoc(file: StoredFile): FileDoc {
  return {
    _id: file.id,
    ownerId: file.ownerId,
    folderId: file.folderId,
    name: file.name,
    nameLower: lowerName(file.name),
    mime: file.mime,
    size: file.size,
    blobKey: file.blobKey,
    uploaderTokenId: file.uploaderTokenId,
    charset: file.charset,
    ...(file.revision ? { revision: file.revision } : {}),
    ...(file.request ? { request: { ...file.request, receivedAt: new Date(file.request.receivedAt) } } : {}),
    ...(file.encryptedMetadata ? { encryptedMetadata: file.encryptedMetadata } : {}),
    createdAt: new Date(file.createdAt),
    updatedAt: new Date(file.updatedAt),
  };
}

function toFile(doc: FileDoc): StoredFile {
  return {
    id: doc._id,
    ownerId: doc.ownerId,
    folderId: doc.folderId ?? null,
    name: doc.name,
    mime: doc.mime,
    size: doc.size,
    blobKey: doc.blobKey,
    uploaderTokenId: doc.uploaderTokenId ?? null,
    charset: doc.charset ?? null,
    ...(doc.revision ? { revision: doc.revision } : {}),
    ...(doc.request ? { request: { ...doc.request, receivedAt: new Date(doc.request.receivedAt) } } : {}),
    ...(doc.encryptedMetadata ? { encryptedMetadata: doc.encryptedMetadata } : {}),
    createdAt: new Date(doc.createdAt),
    updatedAt: new Date(doc.updatedAt),
  };
}

@injectable()
export class MongoFileRepository implements FileRepository {
  private readonly files: Collection<FileDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.files = db.collection<FileDoc>(COLLECTIONS.files);
  }

  async insert(file: StoredFile): Promise<void> {
    await this.files.insertOne(toDoc(file));
  }

  async findById(id: string): Promise<StoredFile | null> {
    const doc = await this.files.findOne({ _id: id });
    return doc ? toFile(doc) : null;
  }

  async findByIds(ids: readonly string[]): Promise<StoredFile[]> {
    if (ids.length === 0) return [];
    return (await this.files.find({ _id: { $in: [...new Set(ids)] } }).toArray()).map(toFile);
  }

  async update(id: string, patch: FilePatch): Promise<StoredFile | null> {
    const set: Partial<FileDoc> = { updatedAt: new Date(patch.updatedAt) };
    if (patch.name !== undefined) {
      set.name = patch.name;
      set.nameLower = lowerName(patch.name);
    }
    if (patch.folderId !== undefined) set.folderId = patch.folderId;
    const filter: Filter<FileDoc> = { _id: id };
    if (patch.whileIn !== undefined) filter.folderId = patch.whileIn;
    const doc = await this.files.findOneAndUpdate(filter, { $set: set }, { returnDocument: 'after' });
    return doc ? toFile(doc) : null;
  }

  async replaceContent(id: string, whileBlob: string, content: ReplacedContent): Promise<StoredFile | null> {
    const doc = await this.files.findOneAndUpdate(
      { _id: id, blobKey: whileBlob, claim: { $exists: false } },
      { $set: { ...content, updatedAt: new Date(content.updatedAt) }, $inc: { revision: 1 } },
      { returnDocument: 'after' },
    );
    return doc ? toFile(doc) : null;
  }

  async claim(ids: readonly string[], claim: string): Promise<StoredFile[]> {
    if (ids.length === 0) return [];
    const among = { _id: { $in: [...new Set(ids)] } };
    // Each document is claimed atomically, and only once: of two removals, each counts only what it claimed.
    await this.files.updateMany({ ...among, claim: { $exists: false } }, { $set: { claim } });
    return (await this.files.find({ ...among, claim }).toArray()).map(toFile);
  }

  async isClaimed(id: string): Promise<boolean> {
    return (await this.files.findOne({ _id: id, claim: { $exists: true } }, { projection: { _id: 1 } })) !== null;
  }

  async claimedBy(claim: string): Promise<StoredFile[]> {
    return (await this.files.find({ claim }).toArray()).map(toFile);
  }

  async deleteClaimed(claim: string): Promise<number> {
    return (await this.files.deleteMany({ claim })).deletedCount;
  }

  async delete(id: string): Promise<StoredFile | null> {
    const doc = await this.files.findOneAndDelete({ _id: id });
    return doc ? toFile(doc) : null;
  }

  async listInFolders(ownerId: string, folderIds: readonly FolderRef[], limit: number): Promise<StoredFile[]> {
    return this.search(ownerId, '', folderIds, limit);
  }

  /** Served by the owner_folder_name index: equality on owner and folder, a range on the name, sorted as stored. */
  async pageInFolder(
    ownerId: string,
    folderId: FolderRef,
    after: NameKey | null,
    limit: number,
  ): Promise<StoredFile[]> {
    // limit(0) would mean "no limit" to MongoDB.
    if (!(limit > 0)) return [];
    const filter = { ownerId, folderId, ...afterName(after) } as Filter<FileDoc>;
    return (await this.files.find(filter).sort(BY_NAME).limit(limit).toArray()).map(toFile);
  }

  async countInFolders(ownerId: string, folderIds: readonly string[]): Promise<Map<string, number>> {
    return countByPlace(
      (pipeline) => this.files.aggregate<{ _id: string; n: number }>(pipeline).toArray(),
      ownerId,
      'folderId',
      folderIds,
    );
  }

  async search(
    ownerId: string,
    query: string,
    folderIds: readonly FolderRef[] | null,
    limit: number,
  ): Promise<StoredFile[]> {
    // limit(0) would mean "no limit" to MongoDB.
    if (!(limit > 0) || folderIds?.length === 0) return [];
    const filter = namedFilter<FileDoc>(ownerId, 'folderId', folderIds, query);
    return (await this.files.find(filter).sort(BY_NAME).limit(limit).toArray()).map(toFile);
  }

  async listByOwner(ownerId: string): Promise<StoredFile[]> {
    return (await this.files.find({ ownerId }).toArray()).map(toFile);
  }

  async referencedBlobKeys(blobKeys: readonly string[]): Promise<Set<string>> {
    if (blobKeys.length === 0) return new Set();
    const cursor = this.files.find({ blobKey: { $in: [...new Set(blobKeys)] } }, { projection: { _id: 0, blobKey: 1 } });
    const found = new Set<string>();
    for await (const doc of cursor) found.add(doc.blobKey);
    return found;
  }
}
