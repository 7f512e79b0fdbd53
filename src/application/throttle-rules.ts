import { normalizeUsername } from '../domain/index.js';
import type { ThrottleKey, ThrottleRule } from './ports/index.js';

/*
 * Every throttle figure of Coffer, after Nextcloud's brute-force model. docs/SECURITY.md ("Throttling") lists them;
 * change both together.
 */
const MINUTE_MS = 60_000;

/** Failed guesses (logins, share passwords) one client address may make in one window. */
export const GUESSES_PER_ADDRESS = 10;
export const GUESS_WINDOW_MS = 30 * MINUTE_MS;
/** Failed guesses at one account (or one share's password) per hour, whatever the addresses they come from. */
export const GUESSES_PER_TARGET_PER_HOUR = 100;
export const TARGET_WINDOW_MS = 60 * MINUTE_MS;
/** Share ids a client address may look up in vain (404) in one window before every share lookup answers 429. */
export const UNKNOWN_SHARE_LOOKUPS = 20;
export const UNKNOWN_SHARE_WINDOW_MS = 10 * MINUTE_MS;
/** Account names longer than any real username (32) still get a counter, but never a huge key. */
const MAX_SUBJECT_LENGTH = 64;

const rule = (name: string, limit: number, windowMs: number): ThrottleRule => Object.freeze({ name, limit, windowMs });

export const RULES = Object.freeze({
  loginPair: rule('login-account-address', GUESSES_PER_ADDRESS, GUESS_WINDOW_MS),
  loginAddress: rule('login-address', GUESSES_PER_ADDRESS, GUESS_WINDOW_MS),
  loginAccount: rule('login-account', GUESSES_PER_TARGET_PER_HOUR, TARGET_WINDOW_MS),
  sharePair: rule('share-password-address', GUESSES_PER_ADDRESS, GUESS_WINDOW_MS),
  shareAddress: rule('share-password-by-address', GUESSES_PER_ADDRESS, GUESS_WINDOW_MS),
  shareTarget: rule('share-password', GUESSES_PER_TARGET_PER_HOUR, TARGET_WINDOW_MS),
  unknownShare: rule('share-unknown-id', UNKNOWN_SHARE_LOOKUPS, UNKNOWN_SHARE_WINDOW_MS),
});

/**
 * The counters one guess at a secret touches. `pair` (this target from this address) is what a success forgives:
 * its failures come back off `address`, as Nextcloud resets an address's attempts at a user once that user logs in.
 * `target` caps the guesses at one account or share from everywhere and keeps them after a success.
 */
export interface GuessKeys {
  pair: ThrottleKey;
  address: ThrottleKey | null;
  target: ThrottleKey;
}

function guessKeys(rules: [ThrottleRule, ThrottleRule, ThrottleRule], subject: string, client?: string): GuessKeys {
  const [pairRule, addressRule, targetRule] = rules;
  return {
    // Without a client address (an embedding host that passes none) the pair falls back to the target alone.
    pair: { rule: pairRule, id: JSON.stringify([subject, client ?? null]) },
    address: client === undefined ? null : { rule: addressRule, id: client },
    target: { rule: targetRule, id: subject },
  };
}

/** Keyed on the lower-cased username, whether or not such an account exists, so counting reveals nothing. */
export function loginKeys(username: string, client?: string): GuessKeys {
  const account = normalizeUsername(username).slice(0, MAX_SUBJECT_LENGTH);
  return guessKeys([RULES.loginPair, RULES.loginAddress, RULES.loginAccount], account, client);
}

export function sharePasswordKeys(shareId: string, client?: string): GuessKeys {
  return guessKeys([RULES.sharePair, RULES.shareAddress, RULES.shareTarget], shareId, client);
}

/** Null without a client address: there is nobody to slow down. */
export function unknownShareKey(client?: string): ThrottleKey | null {
  return client === undefined ? null : { rule: RULES.unknownShare, id: client };
}
