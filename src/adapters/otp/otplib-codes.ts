import { randomBytes } from 'node:crypto';
import { injectable } from 'inversify';
import { generateSecret, generateURI, verify } from 'otplib';
import type { OneTimeCodes } from '../../application/ports/one-time-codes.js';

const PERIOD_S = 30;
const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 6238 through otplib: SHA-1, 6 digits, 30 s, T0 = 0; its default crypto and base32 plugins. */
@injectable()
export class OtplibCodes implements OneTimeCodes {
  newTotpSecret(): string {
    return generateSecret({ length: 20 });
  }

  async totpStep(secret: string, code: string, at: Date): Promise<number | null> {
    if (!/^\d{6}$/.test(code)) return null;
    const result = await verify({
      secret,
      token: code,
      algorithm: 'sha1',
      digits: 6,
      period: PERIOD_S,
      epoch: Math.floor(at.getTime() / 1000),
      // In seconds: one period either side covers exactly the step before and the step after.
      epochTolerance: PERIOD_S,
    });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  }

  totpUri(secret: string, issuer: string, account: string): string {
    return generateURI({ issuer, label: account, secret, algorithm: 'sha1', digits: 6, period: PERIOD_S });
  }

  newRecoveryCode(): string {
    // 10 characters of 5 bits each; a byte's low 5 bits are uniform, so the code is too.
    const chars = [...randomBytes(10)].map((byte) => RECOVERY_ALPHABET[byte & 31]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  }
}
