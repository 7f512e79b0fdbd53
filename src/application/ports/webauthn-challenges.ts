import type { RelyingParty } from './webauthn.js';

/** What a challenge was handed out for: a new passkey, a sign-in without a password, or the second step of a sign-in. */
export type CeremonyPurpose = 'register' | 'login' | 'mfa';

/**
 * A WebAuthn challenge handed out with options, kept in the database so that any instance can check the answer.
 * It names what it may serve: its purpose, the user (null for a sign-in without a password, where nobody is known
 * yet), the mfaToken's digest for the second step, and the relying party the options named.
 */
export interface WebAuthnChallenge {
  /** base64url, as in the options and the answer's clientDataJSON. */
  challenge: string;
  purpose: CeremonyPurpose;
  userId: string | null;
  mfaTokenHash: string | null;
  rp: RelyingParty;
  expiresAt: Date;
}

export const WebAuthnChallengeRepository = Symbol('WebAuthnChallengeRepository');

export interface WebAuthnChallengeRepository {
  insert(challenge: WebAuthnChallenge): Promise<void>;
  /**
   * Deletes and returns the challenge, only if it has this purpose and is unexpired at `now`: one caller at most gets
   * it, so each works once. Null otherwise (a challenge of another purpose stays).
   */
  take(challenge: string, purpose: CeremonyPurpose, now: Date): Promise<WebAuthnChallenge | null>;
}
