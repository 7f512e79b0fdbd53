import { DomainError, limitReached } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';

/**
 * Chunks are held back until this many bytes are gathered, so a large upload costs one counter update and one write
 * per MiB instead of one per network chunk (typically 64 KiB).
 */
export const STORAGE_BATCH = 1024 * 1024;

/**
 * Meters one upload as its bytes arrive: refuses it past the upload cap, and reserves exactly the bytes of each batch
 * before passing the batch on. Reservations never run ahead of the bytes, so concurrent uploads near the limit do
 * not crowd each other out, and the counter never lags behind what was written. What it reserved is given back
 * through the upload's hold, never here.
 */
export class StorageMeter {
  private reserved = 0;
  private received = 0;

  constructor(
    private readonly p: Pick<Ports, 'usage' | 'clock'>,
    private readonly userId: string,
    private readonly maxStorage: number,
    private readonly maxBytes: number,
    /** Every batch is reserved under this hold, which keeps it fresh while bytes keep arriving. */
    private readonly holdId: string,
  ) {}

  async *metered(content: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    let batch: Uint8Array[] = [];
    let batchBytes = 0;
    for await (const chunk of content) {
      this.received += chunk.byteLength;
      if (this.received > this.maxBytes) {
        throw new DomainError('payload_too_large', `A file holds at most ${this.maxBytes} bytes`, {
          maxBytes: this.maxBytes,
        });
      }
      batch.push(chunk);
      batchBytes += chunk.byteLength;
      if (batchBytes >= STORAGE_BATCH) {
        await this.reserve(batchBytes);
        yield joined(batch, batchBytes);
        batch = [];
        batchBytes = 0;
      }
    }
    if (batchBytes > 0) {
      await this.reserve(batchBytes);
      yield joined(batch, batchBytes);
    }
  }

  /** Checks the store wrote exactly what was metered. */
  settle(size: number): void {
    if (size !== this.received || size !== this.reserved) {
      throw new Error(`The blob store reports ${size} bytes where ${this.received} were metered`);
    }
  }

  private async reserve(amount: number): Promise<void> {
    const hold = { id: this.holdId, at: this.p.clock.now() };
    if (!(await this.p.usage.reserve(this.userId, 'storage', amount, this.maxStorage, hold))) {
      throw limitReached('storage');
    }
    this.reserved += amount;
  }
}

/** The batch as one chunk: one copy of at most a MiB, and the store then writes it in one call. */
function joined(batch: readonly Uint8Array[], bytes: number): Uint8Array {
  if (batch.length === 1) return batch[0]!;
  const out = new Uint8Array(bytes);
  let offset = 0;
  for (const chunk of batch) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
