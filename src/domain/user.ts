import type { LimitOverrides } from './limits.js';

export type UserType = 'admin' | 'user';

export interface User {
  id: string;
  username: string;
  type: UserType;
  /** Null: the user has no password (made by single sign-on); a password sign-in then fails as a wrong one does. */
  passwordHash: string | null;
  /**
   * Moves on by one with every password change, in the same write. A session carries the epoch its login read
   * together with the hash it checked, so a session opened with an old password never outlives the change.
   */
  credentialsEpoch: number;
  /**
   * The session that made the latest password change itself, at the epoch just before it; null after any other
   * change (an admin reset, the start-up ADMIN_PASSWORD). That one session stays good across its own change.
   */
  keptSessionId: string | null;
  /**
   * The password is one the user did not choose (the server generated it, or an admin set it): the dashboard asks
   * for a new one before anything else. Only the user's own change clears it; nothing in the API is refused for it.
   */
  mustChangePassword: boolean;
  limits: LimitOverrides;
  /** The single sign-on identity linked to the user, unique across users; null when none. */
  oidc: OidcIdentity | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Who the OpenID provider says a person is: its issuer and the subject (`sub`) it gave them, never their email. */
export interface OidcIdentity {
  issuer: string;
  subject: string;
}

export const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{1,31}$/;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

export function isValidUsername(username: string): boolean {
  return USERNAME_PATTERN.test(username);
}

export function isValidPassword(password: string): boolean {
  const length = [...password].length;
  return length >= PASSWORD_MIN && length <= PASSWORD_MAX;
}

/** Usernames are unique and matched without regard to case. */
export function normalizeUsername(username: string): string {
  return username.toLowerCase();
}

export const USERNAME_MAX = 32;

/**
 * A valid username made from whatever a provider's claim holds (`Zoë Smith@example` → `zoe-smith-example`): accents
 * dropped, every run of other characters one `-`, trimmed to the rules; `user` when nothing usable is left.
 */
export function usernameFrom(raw: string): string {
  const ascii = raw.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  let name = ascii.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  name = name.slice(0, USERNAME_MAX).replace(/[^A-Za-z0-9]+$/, '');
  return isValidUsername(name) ? name : 'user';
}

/** Another try at a free name: `base-n` (n a count from 2, or a random word), the base cut so the whole stays within the maximum. */
export function usernameWithSuffix(base: string, n: number | string): string {
  const suffix = `-${n}`;
  return `${base.slice(0, USERNAME_MAX - suffix.length).replace(/[^A-Za-z0-9]+$/, '')}${suffix}`;
}
