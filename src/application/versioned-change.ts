import { DomainError } from '../domain/index.js';
import type { Versioned } from './ports/index.js';

interface Store<T> {
  read(userId: string): Promise<Versioned<T>>;
  swap(userId: string, version: number, next: T): Promise<boolean>;
}

const ATTEMPTS = 20;

/**
 * Applies `change` to a user's record as one conditional write: computed from the version read, written only while
 * that version stands, computed again from the new state when another write came first. `change` may throw to refuse
 * (nothing is written then) and returns the next value and what the caller gets.
 */
export async function changeVersioned<T, R>(
  store: Store<T>,
  userId: string,
  change: (current: T) => { next: T; result: R },
): Promise<R> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const { version, value } = await store.read(userId);
    const { next, result } = change(value);
    if (await store.swap(userId, version, next)) return result;
  }
  throw new DomainError('unavailable', 'Too many changes at once; try again');
}
