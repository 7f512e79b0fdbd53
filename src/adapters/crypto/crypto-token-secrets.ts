import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { injectable } from 'inversify';
import type { TokenSecrets } from '../../application/ports/token-secrets.js';

/**
 * 256-bit secrets as 43 base64url characters. A plain SHA-256 suffices as the stored digest: the secret already
 * carries 256 bits, so there is nothing for a slow hash to protect against.
 */
@injectable()
export class CryptoTokenSecrets implements TokenSecrets {
  newSecret(): string {
    return randomBytes(32).toString('base64url');
  }

  hash(secret: string): string {
    return createHash('sha256').update(secret, 'utf8').digest('hex');
  }

  mac(key: string, message: string): string {
    return createHmac('sha256', key).update(message, 'utf8').digest('base64url');
  }

  macMatches(key: string, message: string, mac: string): boolean {
    const expected = Buffer.from(this.mac(key, message));
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
