import { randomFillSync } from 'node:crypto';
import { injectable } from 'inversify';
import type { IdGenerator } from '../../application/ports/id-generator.js';

const ID_BYTES = 16;
/** Random bytes drawn at once: 256 ids. */
const POOL_BYTES = ID_BYTES * 256;

/**
 * 128 bits from the CSPRNG as 22 base64url characters, for record ids and share links alike. The bytes are drawn 4 KiB
 * at a time and each id takes the next 16, never reused: one call into the CSPRNG per 256 ids instead of one per id
 * (a share read with activity makes an id for its event, and `randomBytes(16)` was 6% of its CPU in a profile), as
 * `crypto.randomUUID` does with its own cache.
 */
@injectable()
export class CryptoIdGenerator implements IdGenerator {
  private readonly pool = Buffer.allocUnsafeSlow(POOL_BYTES);
  private offset = POOL_BYTES;

  newId(): string {
    return this.next();
  }

  newShareId(): string {
    return this.next();
  }

  private next(): string {
    if (this.offset + ID_BYTES > POOL_BYTES) {
      randomFillSync(this.pool);
      this.offset = 0;
    }
    const id = this.pool.toString('base64url', this.offset, this.offset + ID_BYTES);
    // The bytes handed out are overwritten, so the pool never holds an id already in use (a share link is a secret).
    this.pool.fill(0, this.offset, this.offset + ID_BYTES);
    this.offset += ID_BYTES;
    return id;
  }
}
