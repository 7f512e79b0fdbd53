import { DomainError, limitReached } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';

/** Storage is reserved ahead in grants of this size: a large upload costs one counter update per MiB, not per chunk. */
export const STORAGE_GRANT = 1024 * 1024;

/**
 * Meters one upload as its bytes arrive: refuses it past the upload cap, and reserves storage before a chunk is passed
 * on, so the storage counter never lags behind the bytes written and a full account stops the upload mid-stream.
 */
export class StorageMeter {
  private reserved = 0;
  private received = 0;

  constructor(
    private readonly p: Pick<Ports, 'usage'>,
    private readonly userId: string,
    private readonly maxStorage: number,
    private readonly maxBytes: number,
  ) {}

  async *metered(content: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const chunk of content) {
      const total = this.received + chunk.byteLength;
      if (total > this.maxBytes) {
        throw new DomainError('payload_too_large', `A file holds at most ${this.maxBytes} bytes`, {
          maxBytes: this.maxBytes,
        });
      }
      if (total > this.reserved) await this.grow(total - this.reserved);
      this.received = total;
      yield chunk;
    }
  }

  /** Checks the store wrote what was metered and gives back what was reserved beyond it. */
  async settle(size: number): Promise<void> {
    if (size !== this.received) {
      throw new Error(`The blob store reports ${size} bytes where ${this.received} were written`);
    }
    const extra = this.reserved - size;
    if (extra > 0) {
      await this.p.usage.release(this.userId, 'storage', extra);
      this.reserved = size;
    }
  }

  /** Gives back everything reserved, after a failed upload. */
  async releaseAll(): Promise<void> {
    const amount = this.reserved;
    this.reserved = 0;
    if (amount > 0) await this.p.usage.release(this.userId, 'storage', amount);
  }

  /**
   * A whole grant when the account has room for it; otherwise exactly the missing bytes, so a file that fits the
   * remaining storage to the byte is accepted.
   */
  private async grow(missing: number): Promise<void> {
    const grant = Math.min(Math.max(STORAGE_GRANT, missing), this.maxBytes - this.reserved);
    if (await this.tryReserve(grant)) return;
    if (grant > missing && (await this.tryReserve(missing))) return;
    throw limitReached('storage');
  }

  private async tryReserve(amount: number): Promise<boolean> {
    const ok = await this.p.usage.reserve(this.userId, 'storage', amount, this.maxStorage);
    if (ok) this.reserved += amount;
    return ok;
  }
}
