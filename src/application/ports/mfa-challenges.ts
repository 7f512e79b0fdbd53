/**
 * A password proven, the second factor still to come: what an `mfaToken` stands for. Only the token's digest is
 * stored, so a database read does not hand out a half-finished sign-in.
 */
export interface MfaChallenge {
  hash: string;
  userId: string;
  /** The credentialsEpoch of the record whose password was checked: a password change meanwhile voids the challenge. */
  credentialsEpoch: number;
  expiresAt: Date;
}

export const MfaChallengeRepository = Symbol('MfaChallengeRepository');

export interface MfaChallengeRepository {
  insert(challenge: MfaChallenge): Promise<void>;
  /** The challenge with this digest, if it is still unexpired at `now`. */
  find(hash: string, now: Date): Promise<MfaChallenge | null>;
  /** Deletes the challenge if it is still unexpired at `now`; true only for the one caller that deleted it. */
  take(hash: string, now: Date): Promise<boolean>;
}
