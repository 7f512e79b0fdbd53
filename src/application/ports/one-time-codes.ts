export const OneTimeCodes = Symbol('OneTimeCodes');

/** TOTP (RFC 6238: HMAC-SHA-1, 6 digits, 30-second steps from the Unix epoch) and recovery codes. */
export interface OneTimeCodes {
  /** A new TOTP secret from a CSPRNG: 160 bits, base32 without padding. */
  newTotpSecret(): string;
  /**
   * The time step at which `code` is the TOTP of `secret`, looking one step either side of the step of `at`; null
   * when it is none of the three (or is not six digits).
   */
  totpStep(secret: string, code: string, at: Date): Promise<number | null>;
  /** The `otpauth://totp/...` URI an authenticator app reads (the QR code carries it). */
  totpUri(secret: string, issuer: string, account: string): string;
  /** A recovery code from a CSPRNG: 50 bits, as `xxxxx-xxxxx` in lower-case base32. */
  newRecoveryCode(): string;
}
