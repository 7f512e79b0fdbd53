import { DomainError, isDomainError } from '../../domain/index.js';

/**
 * The OpenID provider of single sign-on, as the core needs it. The adapter does the protocol (discovery, the
 * authorization request, the code exchange and every check of the ID token); the core decides what a sign-in means.
 */

/** What goes to the provider with the browser, and what the callback must check against. */
export interface AuthorizationRequest {
  url: string;
  state: string;
  nonce: string;
  verifier: string;
}

/** What the pending sign-in held, for the checks of the answer. */
export interface ExpectedAnswer {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
}

/** A person as the provider vouched for them, once every check passed. */
export interface ProvenIdentity {
  issuer: string;
  subject: string;
  /** The username claim's value (OIDC_USERNAME_CLAIM), if it held a non-empty string. */
  username: string | null;
  /** The groups claim's values (OIDC_GROUPS_CLAIM): a list of strings, or one string; empty when absent. */
  groups: string[];
}

/**
 * Why a single sign-on failed, as the sign-in page names it: denied (the provider said no, or the person cancelled),
 * rejected (the answer failed a check), unavailable (the provider could not be reached), expired (no pending sign-in
 * for that state in this browser: too old, already used, or never started here), unknown_user (no account and
 * auto-registration is off), taken (the identity belongs to another account), signed_out (a link without a session),
 * off (single sign-on is not configured), failed (anything else).
 */
export const SSO_FAILURES = [
  'denied',
  'rejected',
  'unavailable',
  'expired',
  'unknown_user',
  'taken',
  'signed_out',
  'off',
  'failed',
] as const;
export type SsoFailure = (typeof SSO_FAILURES)[number];

export const IdentityProvider = Symbol('IdentityProvider');

export interface IdentityProvider {
  /**
   * Whether the provider's discovery document has been read. While it has not, a call starts another attempt when
   * the last one is old enough, and waits briefly for it; so the sign-in page says "unavailable" until the provider
   * answers, and start-up never waits for it.
   */
  available(): Promise<boolean>;
  /** A new authorization request (code flow, PKCE S256, state, nonce); rejects with `unavailable` (sso) when down. */
  begin(redirectUri: string): Promise<AuthorizationRequest>;
  /**
   * Checks the provider's answer (the callback's query) and exchanges the code: signature against the provider's
   * keys, issuer, audience, expiry, nonce, state, PKCE. Rejects with an SsoError saying why.
   */
  finish(query: string, expected: ExpectedAnswer): Promise<ProvenIdentity>;
}

/** A failed single sign-on: a domain error whose `sso` detail says why, for the sign-in page. */
export function ssoError(reason: SsoFailure, message: string): DomainError {
  const code = reason === 'unavailable' ? 'unavailable' : reason === 'off' ? 'not_found' : 'unauthorized';
  return new DomainError(code, message, { sso: reason });
}

/** Why a single sign-on failed, from whatever it rejected with. */
export function ssoFailureOf(err: unknown): SsoFailure {
  if (!isDomainError(err)) return 'failed';
  const reason = err.details['sso'];
  if ((SSO_FAILURES as readonly unknown[]).includes(reason)) return reason as SsoFailure;
  return err.code === 'unavailable' ? 'unavailable' : 'failed';
}
