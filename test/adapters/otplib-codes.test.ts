import { describe, expect, it } from 'vitest';
import { OtplibCodes } from '../../src/adapters/otp/otplib-codes.js';
import { base32Decode, base32Encode, totpAtStep } from '../support/totp.js';

// RFC 6238, Appendix B: the SHA-1 seed is the ASCII string "12345678901234567890"; 8-digit codes.
const SEED = base32Encode(Buffer.from('12345678901234567890', 'ascii'));
const VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('OtplibCodes (RFC 6238)', () => {
  const codes = new OtplibCodes();

  it('our reference implementation gives the RFC 6238 Appendix B SHA-1 codes', () => {
    for (const [seconds, code] of VECTORS) expect(totpAtStep(SEED, Math.floor(seconds / 30), 8)).toBe(code);
  });

  it('accepts the Appendix B SHA-1 vectors (their six-digit form) at their times, naming the step', async () => {
    for (const [seconds, code] of VECTORS) {
      // Six digits are the same truncation modulo 10^6: the last six of the eight.
      const six = code.slice(2);
      expect(await codes.totpStep(SEED, six, new Date(seconds * 1000))).toBe(Math.floor(seconds / 30));
    }
  });

  it('accepts one step of drift either way and no more', async () => {
    const [seconds, code] = VECTORS[3]!;
    const six = code.slice(2);
    const step = Math.floor(seconds / 30);
    for (const drift of [-1, 1]) {
      expect(await codes.totpStep(SEED, six, new Date((seconds + drift * 30) * 1000))).toBe(step);
    }
    for (const drift of [-2, 2]) {
      expect(await codes.totpStep(SEED, six, new Date((seconds + drift * 30) * 1000))).toBeNull();
    }
    expect(await codes.totpStep(SEED, code, new Date(seconds * 1000))).toBeNull();
    expect(await codes.totpStep(SEED, 'abcdef', new Date(seconds * 1000))).toBeNull();
  });

  it('makes 160-bit base32 secrets, an otpauth URI, and recovery codes of 50 bits', () => {
    const secret = codes.newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
    const uri = new URL(codes.totpUri(secret, 'Coffer', 'alice'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('Coffer');
    const recovery = new Set(Array.from({ length: 50 }, () => codes.newRecoveryCode()));
    expect(recovery.size).toBe(50);
    for (const code of recovery) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
  });
});
