import type { LimitOverrides, OidcIdentity, User, UserType } from '../../domain/index.js';

export const UserRepository = Symbol('UserRepository');

export interface UserPatch {
  /** Also moves the user's credentialsEpoch on by one and clears keptSessionId, in the same write. */
  passwordHash?: string;
  /** Set with a password the user did not choose, cleared with one they did; absent leaves it as it is. */
  mustChangePassword?: boolean;
  limits?: LimitOverrides;
  updatedAt: Date;
}

/** A user's change of their own password, from the session `keptSessionId`. */
export interface OwnPasswordChange {
  /** The epoch of the record whose hash the current password was checked against. */
  fromEpoch: number;
  passwordHash: string;
  keptSessionId: string;
  updatedAt: Date;
}

/**
 * How a change that could remove an admin ended: done; missing (no such user); or last_admin, when it would have
 * left no admin at all, in which case nothing was written.
 */
export type AdminGuarded = 'done' | 'missing' | 'last_admin';

/** The deployment-wide admin count the guard decides on, next to the admins that really exist. */
export interface AdminCount {
  stored: number;
  actual: number;
}

/** How a link ended: done; missing (no such user); taken (another user holds that identity; nothing was written). */
export type LinkOutcome = 'done' | 'missing' | 'taken';

/** How an unlink ended: done (also when nothing was linked); missing; or no_password, when nothing was written. */
export type UnlinkOutcome = 'done' | 'missing' | 'no_password';

export interface UserRepository {
  /**
   * False when the username is taken (compared without regard to case) or another user holds its single sign-on
   * identity; nothing is written then.
   */
  insert(user: User): Promise<boolean>;
  findById(id: string): Promise<User | null>;
  /** Matches without regard to case. */
  findByUsername(username: string): Promise<User | null>;
  /** The user linked to this single sign-on identity (issuer and subject match exactly). */
  findByOidc(identity: OidcIdentity): Promise<User | null>;
  /** Links the identity to the user (replacing any other of theirs), unless another user holds it: one write. */
  linkOidc(id: string, identity: OidcIdentity, updatedAt: Date): Promise<LinkOutcome>;
  /**
   * Removes the user's identity; with `needPassword`, only while they have a password to sign in with: one conditional
   * write.
   */
  unlinkOidc(id: string, updatedAt: Date, needPassword: boolean): Promise<UnlinkOutcome>;
  /** Every user, ordered by createdAt then id. */
  list(): Promise<User[]>;
  update(id: string, patch: UserPatch): Promise<User | null>;
  /**
   * Stores the new hash, moves the epoch on by one, records the session kept and clears mustChangePassword (the user
   * chose this password), in one write, only while the epoch is still `fromEpoch`; null (nothing written) when the
   * user is gone or the password changed meanwhile.
   */
  changeOwnPassword(id: string, change: OwnPasswordChange): Promise<User | null>;
  /**
   * Makes the user an admin or a plain user. Taking admin rights away is atomic with the check that another admin
   * remains, whatever else runs at the same time on any instance. Setting the type the user has writes nothing.
   */
  setType(id: string, type: UserType, updatedAt: Date): Promise<AdminGuarded>;
  /** Deletes the user; an admin only while another admin remains, decided as setType decides it. */
  delete(id: string): Promise<AdminGuarded>;
  /** Admins as the user records say. */
  countAdmins(): Promise<number>;
  /**
   * The stored admin count against the records; with `fix`, the stored count becomes the actual one. Only a crash
   * between the two writes of a demotion or deletion leaves it behind (too low: demotions are refused too early, never
   * allowed too late); fix it while no admin change is under way, as a change counted but not yet written would be
   * counted twice.
   */
  checkAdminCount(fix: boolean): Promise<AdminCount>;
}
