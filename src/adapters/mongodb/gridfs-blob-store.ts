import { randomBytes } from 'node:crypto';
import { finished } from 'node:stream/promises';
import { inject, injectable } from 'inversify';
import { GridFSBucket, ObjectId, type Collection, type Db, type GridFSBucketWriteStream } from 'mongodb';
import {
  piecesOf,
  type BlobEntry,
  type BlobPiece,
  type BlobStore,
  type ByteRange,
  type KeyOptions,
  type WriteOptions,
} from '../../application/ports/blob-store.js';
import { DomainError } from '../../domain/errors.js';
import { readChunks, type ChunkDoc } from './gridfs-chunks.js';
import { BLOB_BUCKET, MongoDb } from './mongo-database.js';

/** 128 random bits as base64url: the GridFS `_id` and `filename` of the blob. */
const KEY_PATTERN = /^[A-Za-z0-9_-]{22}$/;
const freshKey = () => randomBytes(16).toString('base64url');

/** The driver types GridFS ids as ObjectId, but GridFS accepts any `_id`; our keys are strings. */
const asFileId = (key: string) => key as unknown as ObjectId;

interface BlobFileDoc {
  _id: string;
  length: number;
  chunkSize: number;
  uploadDate: Date;
}

/** Blob bytes in GridFS (bucket `blobs`), so a MongoDB deployment needs no shared disk. */
@injectable()
export class GridFsBlobStore implements BlobStore {
  private readonly bucket: GridFSBucket;
  private readonly files: Collection<BlobFileDoc>;
  private readonly chunks: Collection<ChunkDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.bucket = new GridFSBucket(db, { bucketName: BLOB_BUCKET });
    this.files = db.collection<BlobFileDoc>(`${BLOB_BUCKET}.files`);
    this.chunks = db.collection<ChunkDoc>(`${BLOB_BUCKET}.chunks`);
  }

  /**
   * Each piece is written and acknowledged before the next is pulled from `content`. That is the backpressure, and
   * it means no chunk insert is still in flight when a failure triggers the cleanup, so nothing lands after it.
   */
  newKey(): string {
    return freshKey();
  }

  async write(content: AsyncIterable<BlobPiece>, options: WriteOptions = {}): Promise<{ key: string; size: number }> {
    const key = options.key ?? freshKey();
    if (!KEY_PATTERN.test(key)) throw new RangeError(`Not a key of this store: ${JSON.stringify(key)}`);
    const upload = this.bucket.openUploadStreamWithId(asFileId(key), key);
    // Failures arrive through the write callbacks and `finished`; without a listener an 'error' event would crash.
    upload.on('error', () => undefined);
    let size = 0;
    try {
      for await (const piece of content) {
        for (const chunk of piecesOf(piece)) {
          size += chunk.byteLength;
          await writePiece(upload, chunk);
        }
      }
      upload.end();
      await finished(upload);
      return { key, size };
    } catch (err) {
      await this.discard(upload, key);
      throw err;
    }
  }

  /** GridFS writes are durable once the database acknowledges them (its write concern): only existence is checked. */
  async makeDurable(keys: readonly string[]): Promise<void> {
    for (const key of keys) if ((await this.size(key)) === null) throw new DomainError('not_found', 'Blob not found');
  }

  /** GridFS numbers a file's chunks from 0 in one size, so parts are copied into a new file, then deleted. */
  async join(keys: readonly string[], options: KeyOptions = {}): Promise<{ key: string; size: number }> {
    for (const key of keys) if ((await this.size(key)) === null) throw new DomainError('not_found', 'Blob not found');
    const read = (key: string) => this.read(key);
    const joined = await this.write(
      (async function* () {
        for (const key of keys) yield* await read(key);
      })(),
      options,
    );
    await Promise.all(keys.map((key) => this.delete(key)));
    return joined;
  }

  /** One read of the file document, then only the chunks wanted (see readChunks). */
  async read(key: string, range?: ByteRange): Promise<AsyncIterable<Uint8Array>> {
    if (range) assertRange(range);
    if (!KEY_PATTERN.test(key)) throw blobNotFound();
    const file = await this.files.findOne({ _id: key }, { projection: { length: 1, chunkSize: 1 } });
    if (!file) throw blobNotFound();
    const stored = { _id: key, length: Number(file.length), chunkSize: Number(file.chunkSize) };
    // HTTP ranges may run past the end, so the end is clamped to the last byte.
    const end = range ? Math.min(range.end + 1, stored.length) : stored.length;
    return readChunks(this.chunks, stored, range?.start ?? 0, end);
  }

  async size(key: string): Promise<number | null> {
    if (!KEY_PATTERN.test(key)) return null;
    const doc = await this.files.findOne({ _id: key }, { projection: { length: 1 } });
    return doc ? Number(doc.length) : null;
  }

  /** The file document goes first, so a half-finished delete never leaves a blob that reads as present but short. */
  async delete(key: string): Promise<void> {
    if (!KEY_PATTERN.test(key)) return;
    await this.files.deleteOne({ _id: key });
    await this.chunks.deleteMany({ files_id: key });
  }

  async *list(): AsyncIterable<BlobEntry> {
    const cursor = this.files.find({}, { projection: { _id: 1, uploadDate: 1 } });
    for await (const doc of cursor) {
      if (KEY_PATTERN.test(doc._id)) yield { key: doc._id, createdAt: new Date(doc.uploadDate) };
    }
  }

  /**
   * GridFS writes the file document last, so a write cut short by a crash leaves chunks that no file names. They go
   * once their newest chunk (its ObjectId carries the time) is older than `before`: a write still under way keeps
   * adding chunks. Looks at every chunk's index entry, which is why it runs at start-up and on a slow schedule only.
   */
  async purgeIncomplete(before: Date): Promise<number> {
    const cutoff = ObjectId.createFromTime(Math.floor(before.getTime() / 1000));
    const stale = await this.chunks
      .aggregate<{ _id: string }>(
        [
          { $group: { _id: '$files_id', newest: { $max: '$_id' } } },
          { $match: { newest: { $lt: cutoff } } },
          { $lookup: { from: `${BLOB_BUCKET}.files`, localField: '_id', foreignField: '_id', as: 'file' } },
          { $match: { file: { $size: 0 } } },
          { $project: { _id: 1 } },
        ],
        { allowDiskUse: true },
      )
      .toArray();
    if (stale.length === 0) return 0;
    const { deletedCount } = await this.chunks.deleteMany({ files_id: { $in: stale.map((doc) => doc._id) } });
    return deletedCount;
  }

  /** Chunks carry no writer: what a dead writer left goes by its age (purgeIncomplete), or by its key. */
  async purgeAbandoned(): Promise<number> {
    return 0;
  }

  /** Cleanup after a failure must never hide the failure itself. */
  private async discard(upload: GridFSBucketWriteStream, key: string): Promise<void> {
    await upload.abort().catch(() => undefined);
    upload.destroy();
    await this.delete(key).catch(() => undefined);
  }
}

function writePiece(upload: GridFSBucketWriteStream, piece: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    upload.write(piece, (err) => (err ? reject(err) : resolve()));
  });
}

function assertRange(range: ByteRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`Invalid byte range ${start}-${end}`);
  }
}

function blobNotFound(): DomainError {
  return new DomainError('not_found', 'Blob not found');
}
