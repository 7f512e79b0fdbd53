import type { LimitOverrides } from './limits.js';

export type UserType = 'admin' | 'user';

export interface User {
  id: string;
  username: string;
  type: UserType;
  passwordHash: string;
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
  createdAt: Date;
  updatedAt: Date;
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
