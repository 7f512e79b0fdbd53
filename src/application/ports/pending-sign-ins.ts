/**
 * A single sign-on on its way through the provider: what the callback needs to check the answer, stored in the
 * database so that any instance can finish it. Only the state's digest is stored as its key, and the browser that
 * started it is named by the digest of a key only that browser holds (a cookie), so neither a database read nor a
 * callback link passed to someone else finishes it.
 */
export interface PendingSignIn {
  /** TokenSecrets.hash of the `state` sent to the provider. */
  stateHash: string;
  /** TokenSecrets.hash of the browser key set as a cookie by the start. */
  browserHash: string;
  nonce: string;
  /** The PKCE code verifier; the provider saw only its S256 challenge. */
  verifier: string;
  /** The redirect URI sent with the request; the token request must repeat it. */
  redirectUri: string;
  /** Where the browser goes afterwards: a path on our own origin. */
  next: string;
  /** `login` signs a browser in; `link` attaches the identity to `userId`. */
  intent: 'login' | 'link';
  /** The signed-in user who asked to link; null for a sign-in. */
  userId: string | null;
  expiresAt: Date;
}

export const PendingSignInRepository = Symbol('PendingSignInRepository');

export interface PendingSignInRepository {
  insert(pending: PendingSignIn): Promise<void>;
  /**
   * Deletes and answers the pending sign-in of this state digest if it is still unexpired at `now`; null otherwise.
   * Atomic: of callers racing for one, exactly one gets it.
   */
  take(stateHash: string, now: Date): Promise<PendingSignIn | null>;
}
