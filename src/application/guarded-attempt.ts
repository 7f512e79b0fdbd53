import { DomainError } from '../domain/index.js';
import type { Throttle, ThrottleKey } from './ports/index.js';
import type { GuessKeys } from './throttle-rules.js';

/** One answer for every lockout, so a locked-out client learns nothing more (not even whether its guess was right). */
export function rateLimited(waitMs: number): DomainError {
  const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
  return new DomainError('rate_limited', 'Too many attempts; try again later', { retryAfter });
}

export async function refuseWhileLocked(throttle: Throttle, keys: readonly ThrottleKey[]): Promise<void> {
  const wait = await throttle.lockedFor(keys);
  if (wait > 0) throw rateLimited(wait);
}

/**
 * Judges one guess at a secret under the throttle. The lock is checked before the secret, so a right guess during a
 * lockout gets the same answer as a wrong one. The guess is counted before it is judged (as a usage counter reserves
 * before creating), so concurrent guesses cannot slip past a limit together; a guess that is refused or cannot be
 * judged is taken back, and a right one forgives its pair's failures. `judge` answers null for a wrong guess.
 */
export async function judgeGuess<T>(
  throttle: Throttle,
  keys: GuessKeys,
  judge: () => Promise<T | null>,
): Promise<T | null> {
  const all = keys.address ? [keys.pair, keys.address, keys.target] : [keys.pair, keys.target];
  await refuseWhileLocked(throttle, all);
  const over = await throttle.count(all);
  if (over > 0) {
    await throttle.uncount(all);
    throw rateLimited(over);
  }
  let right: T | null;
  try {
    right = await judge();
  } catch (err) {
    await throttle.uncount(all);
    throw err;
  }
  if (right !== null) {
    await throttle.forgive(keys.pair, keys.address ? [keys.address] : []);
    await throttle.uncount([keys.target]);
  }
  return right;
}
