import { randomBytes } from 'node:crypto';
import { injectable } from 'inversify';
import type { IdGenerator } from '../../application/ports/id-generator.js';

/** 128 bits from the CSPRNG as 22 base64url characters, for record ids and share links alike. */
@injectable()
export class CryptoIdGenerator implements IdGenerator {
  newId(): string {
    return randomBytes(16).toString('base64url');
  }

  newShareId(): string {
    return randomBytes(16).toString('base64url');
  }
}
