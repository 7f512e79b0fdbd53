/**
 * A user's second factors. One record per user, created when TOTP is first set up. Every change is one conditional
 * write, so two requests racing (two instances, two tabs) cannot both use one code or both turn TOTP on.
 */
export interface SecondFactorRecord {
  userId: string;
  /** The confirmed TOTP secret (base32); null while TOTP is off. */
  totpSecret: string | null;
  /** A secret handed out by a setup and not confirmed yet; null when none is pending. */
  pendingTotpSecret: string | null;
  /** The latest TOTP time step accepted: a code of this step or an earlier one is refused (each code works once). */
  lastTotpStep: number | null;
  /** Digests of the unused recovery codes (TokenSecrets.hash of `userId:code`). */
  recoveryCodeHashes: string[];
  /** How many passkeys the user has (PasskeyRepository holds them): counted here so a sign-in reads one record. */
  passkeyCount: number;
  updatedAt: Date;
}

/** What confirming a TOTP setup writes. */
export interface TotpConfirmation {
  /** The pending secret the code was checked against: the write happens only while it is still the pending one. */
  secret: string;
  /** The step the confirming code matched: it counts as used. */
  step: number;
  recoveryCodeHashes: string[];
  updatedAt: Date;
}

export const SecondFactorRepository = Symbol('SecondFactorRepository');

export interface SecondFactorRepository {
  find(userId: string): Promise<SecondFactorRecord | null>;
  /**
   * Stores `secret` as the pending TOTP secret (replacing an earlier pending one), creating the record if need be;
   * false, writing nothing, while TOTP is on.
   */
  startTotp(userId: string, secret: string, updatedAt: Date): Promise<boolean>;
  /**
   * Turns TOTP on with the pending secret, the step used and new recovery codes, in one write: only while `secret`
   * is still the pending one and TOTP is off; false otherwise.
   */
  confirmTotp(userId: string, confirmation: TotpConfirmation): Promise<boolean>;
  /** Records `step` as used, only while TOTP is on with `secret` and no step at or after it was used; false otherwise. */
  useTotpStep(userId: string, secret: string, step: number): Promise<boolean>;
  /** Removes one recovery code's digest; true only for the one caller that removed it. */
  useRecoveryCode(userId: string, hash: string): Promise<boolean>;
  /** Replaces every recovery code, only while TOTP is on with `secret`; false otherwise. */
  replaceRecoveryCodes(userId: string, secret: string, hashes: string[], updatedAt: Date): Promise<boolean>;
  /** Turns TOTP off and drops the recovery codes, only while TOTP is on with `secret`; false otherwise. */
  turnOffTotp(userId: string, secret: string, updatedAt: Date): Promise<boolean>;
  /**
   * Counts one more passkey, creating the record if need be, only while the user has fewer than `max`: one
   * conditional write, so racing registrations never pass the maximum. False, writing nothing, at the maximum.
   */
  addPasskeySlot(userId: string, max: number, updatedAt: Date): Promise<boolean>;
  /** Counts one passkey less, never below zero; false when there was none counted. */
  releasePasskeySlot(userId: string, updatedAt: Date): Promise<boolean>;
  /** Removes every second factor of the user (an admin's reset, a deleted account); false when there was none. */
  deleteByUser(userId: string): Promise<boolean>;
}
