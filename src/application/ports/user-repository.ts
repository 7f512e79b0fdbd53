import type { LimitOverrides, User, UserType } from '../../domain/index.js';

export const UserRepository = Symbol('UserRepository');

export interface UserPatch {
  type?: UserType;
  passwordHash?: string;
  limits?: LimitOverrides;
  updatedAt: Date;
}

export interface UserRepository {
  /** False when the username is taken (compared without regard to case); nothing is written then. */
  insert(user: User): Promise<boolean>;
  findById(id: string): Promise<User | null>;
  /** Matches without regard to case. */
  findByUsername(username: string): Promise<User | null>;
  /** Every user, ordered by createdAt then id. */
  list(): Promise<User[]>;
  update(id: string, patch: UserPatch): Promise<User | null>;
  delete(id: string): Promise<boolean>;
  countAdmins(): Promise<number>;
}
