import type { ItemProperty, WriteLock } from '../../domain/index.js';

/**
 * One user's record of a kind, read with its version and replaced only while that version still stands: one
 * conditional write per change, so two instances never both apply a change made from the same state.
 */
export interface Versioned<T> {
  /** 0 when nothing is stored yet. */
  version: number;
  value: T;
}

export const PropertyStore = Symbol('PropertyStore');
/** The properties clients stored on a user's items, by item id. */
export interface PropertyStore {
  read(userId: string): Promise<Versioned<Record<string, ItemProperty[]>>>;
  /** Stores `next` as version `version + 1` only while `version` is the stored one; false otherwise. */
  swap(userId: string, version: number, next: Record<string, ItemProperty[]>): Promise<boolean>;
  /** Forgets everything of the user (their account went). */
  remove(userId: string): Promise<void>;
}

export const LockStore = Symbol('LockStore');
/** The write locks a user's clients hold. */
export interface LockStore {
  read(userId: string): Promise<Versioned<WriteLock[]>>;
  swap(userId: string, version: number, next: WriteLock[]): Promise<boolean>;
  remove(userId: string): Promise<void>;
}
