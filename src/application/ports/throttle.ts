/** How many attempts a key may count within a window that opens at its first attempt. */
export interface ThrottleRule {
  /** Unique among rules: keys of different rules never share a counter. */
  readonly name: string;
  readonly limit: number;
  readonly windowMs: number;
}

/** One counter: a rule applied to one subject (an account, a client address, a share, or a pair of them). */
export interface ThrottleKey {
  readonly rule: ThrottleRule;
  readonly id: string;
}

/** One key's count after an attempt was counted on it. */
export interface Tally {
  /** Attempts counted in the key's current window, the one just counted included. */
  readonly count: number;
  /** Milliseconds until the window ends and the count drops back to zero. */
  readonly resetIn: number;
}

/** The two counters one guess is counted on before it is judged: its target's, and this address's at the target. */
export interface GuessCounters {
  readonly target: ThrottleKey;
  readonly pair: ThrottleKey;
}

export const Throttle = Symbol('Throttle');

/**
 * Counters of attempts (failed logins, wrong share passwords, unknown share ids). A key that has counted its rule's
 * limit is locked until its window ends. Each change to one key is one atomic operation.
 */
export interface Throttle {
  /** Milliseconds until every key takes attempts again; 0 when none is at its limit. Counts nothing. */
  lockedFor(keys: readonly ThrottleKey[]): Promise<number>;
  /**
   * Counts one attempt on every key. 0 when each count stayed within its limit; otherwise the milliseconds until the
   * key that went past its limit takes attempts again (the caller refuses the attempt and takes it back).
   */
  count(keys: readonly ThrottleKey[]): Promise<number>;
  /** Counts one attempt on `key` like `count`, and tells the count itself and when its window ends. */
  tally(key: ThrottleKey): Promise<Tally>;
  /** Takes one counted attempt back off every key, never below zero. */
  uncount(keys: readonly ThrottleKey[]): Promise<void>;
  /** Deletes `key`'s count in one atomic step: its next attempt opens a new window. */
  forgive(key: ThrottleKey): Promise<void>;
  /**
   * tally on both counters of a guess, each exact under concurrency as tally is; a store may keep the two together
   * and count both in one atomic step (one round trip). The counters of a guess are counted, given back and
   * forgiven only through the three guess methods.
   */
  tallyGuess(counters: GuessCounters): Promise<{ target: Tally; pair: Tally }>;
  /** uncount on both counters of a guess (refused, or not judged). */
  uncountGuess(counters: GuessCounters): Promise<void>;
  /** A right guess: forgive the pair and uncount the target. */
  forgiveGuess(counters: GuessCounters): Promise<void>;
}
