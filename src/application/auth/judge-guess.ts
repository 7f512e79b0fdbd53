import { DomainError } from '../../domain/index.js';
import type { Tally, Throttle, ThrottleKey } from '../ports/index.js';
import { GUESSES_PER_TARGET_WHILE_SPRAYING, type GuessKeys } from './throttle-rules.js';

/** One answer for every lockout, so a locked-out client learns nothing more (not even whether its guess was right). */
export function rateLimited(waitMs: number): DomainError {
  const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
  return new DomainError('rate_limited', 'Too many attempts; try again later', { retryAfter });
}

/**
 * Judges one guess at a secret under the throttle. The lock is checked before the secret, so a right guess during a
 * lockout gets the same answer as a wrong one. The guess is counted before it is judged (as a usage counter reserves
 * before creating), so concurrent guesses cannot slip past a limit together; a guess that is refused or cannot be
 * judged is taken back. A wrong guess at a target this address had not failed at yet counts one more sprayed target;
 * a right one forgives its pair and takes its target back off the address. `judge` answers null for a wrong guess.
 */
export async function judgeGuess<T>(
  throttle: Throttle,
  keys: GuessKeys,
  judge: () => Promise<T | null>,
): Promise<T | null> {
  const counted = { target: keys.target, pair: keys.pair };
  const { pair, target } = await throttle.tallyGuess(counted);
  let wait = Math.max(over(pair, keys.pair), over(target, keys.target));
  if (wait === 0) wait = await sprayWait(throttle, keys, pair);
  if (wait > 0) {
    await throttle.uncountGuess(counted);
    throw rateLimited(wait);
  }
  let right: T | null;
  try {
    right = await judge();
  } catch (err) {
    await throttle.uncountGuess(counted);
    throw err;
  }
  // The pair's count was 1 exactly when no earlier failure of this address at this target is still counted.
  const failedHereBefore = pair.count > 1;
  if (right === null) {
    if (keys.spray && !failedHereBefore) await throttle.count([keys.spray]);
  } else {
    const spray = keys.spray && failedHereBefore ? throttle.uncount([keys.spray]) : null;
    await Promise.all([throttle.forgiveGuess(counted), spray]);
  }
  return right;
}

function over(tally: Tally, { rule }: ThrottleKey): number {
  return tally.count > rule.limit ? tally.resetIn : 0;
}

/**
 * An address that has failed at SPRAYED_TARGETS different targets keeps GUESSES_PER_TARGET_WHILE_SPRAYING guesses at
 * each, instead of the pair's full limit, until its spray window or the pair's window ends. Only its own failures at
 * this very target can refuse a guess here: a target it has not failed at is always judged.
 */
async function sprayWait(throttle: Throttle, keys: GuessKeys, pair: Tally): Promise<number> {
  if (!keys.spray || pair.count <= GUESSES_PER_TARGET_WHILE_SPRAYING) return 0;
  const spraying = await throttle.lockedFor([keys.spray]);
  return spraying > 0 ? Math.min(spraying, pair.resetIn) : 0;
}

/**
 * An attempt counted on one key (no account named, so no pair): counted before it is judged, taken back when it
 * succeeds or cannot be judged, refused with rate_limited past the key's limit. Without a key it is only judged.
 */
export async function judgeAttempt<T>(
  throttle: Throttle,
  key: ThrottleKey | null,
  judge: () => Promise<T | null>,
): Promise<T | null> {
  if (key === null) return judge();
  const tally = await throttle.tally(key);
  const wait = over(tally, key);
  if (wait > 0) {
    await throttle.uncount([key]);
    throw rateLimited(wait);
  }
  let right: T | null;
  try {
    right = await judge();
  } catch (err) {
    await throttle.uncount([key]);
    throw err;
  }
  if (right !== null) await throttle.uncount([key]);
  return right;
}

/** Counts one use of `key` (nothing to judge); rate_limited, taking it back, past the key's limit. */
export async function countUse(throttle: Throttle, key: ThrottleKey | null): Promise<void> {
  if (key === null) return;
  const tally = await throttle.tally(key);
  const wait = over(tally, key);
  if (wait === 0) return;
  await throttle.uncount([key]);
  throw rateLimited(wait);
}
