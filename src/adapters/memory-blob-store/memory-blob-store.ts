import { randomBytes } from 'node:crypto';
import { injectable } from 'inversify';
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

const READ_CHUNK = 64 * 1024;

function assertRange(range: ByteRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`Invalid byte range ${start}-${end}`);
  }
}

async function* chunksOf(bytes: Buffer): AsyncIterable<Uint8Array> {
  for (let i = 0; i < bytes.length; i += READ_CHUNK) {
    // A copy, so a consumer that mutates what it reads cannot change the stored blob.
    yield Buffer.from(bytes.subarray(i, i + READ_CHUNK));
  }
}

/** Blobs in process memory, for tests and embedding; as strict as the file store (copies in, copies out). */
@injectable()
export class MemoryBlobStore implements BlobStore {
  private readonly blobs = new Map<string, { bytes: Buffer; createdAt: Date }>();

  newKey(): string {
    return randomBytes(16).toString('hex');
  }

  async write(content: AsyncIterable<BlobPiece>, options: WriteOptions = {}): Promise<{ key: string; size: number }> {
    if (options.key !== undefined && !/^[0-9a-f]{32}$/.test(options.key)) {
      throw new RangeError(`Not a key of this store: ${JSON.stringify(options.key)}`);
    }
    const parts: Buffer[] = [];
    // Nothing is stored until the whole content has arrived, so a failure leaves nothing behind.
    for await (const piece of content) {
      for (const chunk of piecesOf(piece)) parts.push(Buffer.from(chunk));
    }
    const bytes = Buffer.concat(parts);
    let key = options.key ?? this.newKey();
    if (options.key !== undefined && this.blobs.has(key)) throw new Error(`The key ${key} is in use already`);
    while (this.blobs.has(key)) key = this.newKey();
    this.blobs.set(key, { bytes, createdAt: new Date() });
    return { key, size: bytes.length };
  }

  /** Memory holds nothing across a crash: only that the blobs exist is checked. */
  async makeDurable(keys: readonly string[]): Promise<void> {
    if (keys.some((key) => !this.blobs.has(key))) throw new DomainError('not_found', 'Blob not found');
  }

  async join(keys: readonly string[], options: KeyOptions = {}): Promise<{ key: string; size: number }> {
    const parts = keys.map((key) => this.blobs.get(key)?.bytes);
    if (parts.some((part) => part === undefined)) throw new DomainError('not_found', 'Blob not found');
    const joined = await this.write(
      (async function* () {
        yield* parts as Buffer[];
      })(),
      options,
    );
    for (const key of keys) this.blobs.delete(key);
    return joined;
  }

  async read(key: string, range?: ByteRange): Promise<AsyncIterable<Uint8Array>> {
    if (range) assertRange(range);
    const bytes = this.blobs.get(key)?.bytes;
    if (bytes === undefined) throw new DomainError('not_found', 'Blob not found');
    return chunksOf(range ? bytes.subarray(range.start, range.end + 1) : bytes);
  }

  async size(key: string): Promise<number | null> {
    return this.blobs.get(key)?.bytes.length ?? null;
  }

  async delete(key: string): Promise<void> {
    this.blobs.delete(key);
  }

  async *list(): AsyncIterable<BlobEntry> {
    // A snapshot, so deletes during the walk cannot disturb the iteration.
    const entries = [...this.blobs].map(([key, blob]) => ({ key, createdAt: new Date(blob.createdAt) }));
    yield* entries;
  }

  /** A write stores nothing until it is complete, so an interrupted one leaves nothing to purge. */
  async purgeIncomplete(): Promise<number> {
    return 0;
  }

  async purgeAbandoned(): Promise<number> {
    return 0;
  }

  /** The keys held right now; lets tests check that nothing was left behind without trusting write's result. */
  keys(): string[] {
    return [...this.blobs.keys()];
  }
}
