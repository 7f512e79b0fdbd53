/**
 * WebAuthn (Level 2) ceremonies, as the core needs them: options for the browser, and the checks of what the
 * authenticator answered. The core never parses a credential itself; it stores what a verified registration gives
 * and hands it back to verify a sign-in.
 */

/** The site passkeys are bound to: its RP id (a domain name, never an IP address) and the one origin that may use them. */
export interface RelyingParty {
  id: string;
  origin: string;
}

/** A credential as the browser hands it over (PublicKeyCredential#toJSON, @simplewebauthn/browser): opaque here. */
export type CredentialJson = Readonly<Record<string, unknown>>;

/**
 * The options a browser passes to navigator.credentials.create / get (PublicKeyCredentialCreationOptionsJSON,
 * PublicKeyCredentialRequestOptionsJSON), as JSON; the challenge is in them too.
 */
export type CeremonyOptions = Readonly<Record<string, unknown>>;

/** A registered credential named in options (excludeCredentials, allowCredentials). */
export interface CredentialRef {
  credentialId: string;
  transports: string[];
}

/** What a verified registration gives: all the core keeps of a passkey's key material. */
export interface NewCredential {
  /** base64url, as the browser names it. */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  userVerified: boolean;
}

/** A stored credential, to verify an assertion with. */
export interface StoredCredential {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

/** What an assertion says of itself before any check: which credential, and whose (the user handle, decoded). */
export interface AssertionClaim {
  credentialId: string;
  /** The user id the user handle carries; null when the response has no user handle (not a discoverable sign-in). */
  userId: string | null;
}

/** A check's outcome: what passed, or why not (for people; never a secret). */
export type Verdict<T> = { ok: true; value: T } | { ok: false; reason: string };

export const WebAuthn = Symbol('WebAuthn');

export interface WebAuthn {
  /**
   * Options to create a discoverable credential for the user (user verification preferred), excluding the ones they
   * have. The user handle is the user's id (UTF-8 bytes), never their name.
   */
  registrationOptions(input: {
    rp: RelyingParty;
    rpName: string;
    userId: string;
    userName: string;
    exclude: CredentialRef[];
  }): Promise<{ challenge: string; options: CeremonyOptions }>;
  /** Options to sign with one of `allow` (a second factor), or with any credential of this site (null: discoverable). */
  authenticationOptions(input: {
    rp: RelyingParty;
    allow: CredentialRef[] | null;
  }): Promise<{ challenge: string; options: CeremonyOptions }>;
  /** The challenge a response claims to answer (from its clientDataJSON); null when it cannot be read. */
  challengeOf(response: CredentialJson): string | null;
  /** Which credential an assertion claims to be, and the user its handle names; null when it cannot be read. */
  assertionClaim(response: CredentialJson): AssertionClaim | null;
  /** Checks a registration: challenge, origin, RP id, type, user presence, the attestation ("none" or a valid one). */
  verifyRegistration(input: {
    response: CredentialJson;
    challenge: string;
    rp: RelyingParty;
  }): Promise<Verdict<NewCredential>>;
  /**
   * Checks an assertion against the stored credential: challenge, origin, RP id, type, user presence, the
   * signature, and the signature counter (refused unless it moved past the stored one, when either is non-zero).
   */
  verifyAuthentication(input: {
    response: CredentialJson;
    challenge: string;
    rp: RelyingParty;
    credential: StoredCredential;
  }): Promise<Verdict<{ newCounter: number; userVerified: boolean }>>;
}
