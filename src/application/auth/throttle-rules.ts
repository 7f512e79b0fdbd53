import { normalizeUsername } from '../../domain/index.js';
import type { ThrottleKey, ThrottleRule } from '../ports/index.js';

/*
 * Every throttle figure of Coffer. docs/SECURITY.md ("Throttling") lists them and the model; change both together.
 * A target is what a guess is aimed at: an account (logins) or a share's password.
 */
const MINUTE_MS = 60_000;

/** Failed guesses at one target from one client address in one window. */
export const GUESSES_PER_TARGET_AND_ADDRESS = 10;
export const GUESS_WINDOW_MS = 30 * MINUTE_MS;
/** Failed guesses at one target per hour, whatever the addresses they come from. */
export const GUESSES_PER_TARGET_PER_HOUR = 100;
export const TARGET_WINDOW_MS = 60 * MINUTE_MS;
/** Different targets one address may fail at in a guess window before it counts as spraying. */
export const SPRAYED_TARGETS = 10;
/** What a spraying address keeps at each target instead of GUESSES_PER_TARGET_AND_ADDRESS. */
export const GUESSES_PER_TARGET_WHILE_SPRAYING = 3;
/**
 * Wrong second-factor codes (TOTP or recovery) at one account from one address, and from everywhere. Tighter than
 * passwords': a six-digit code has only 10^6 values, three of them right at any moment (one step of drift each way).
 */
export const CODE_GUESSES_PER_ACCOUNT_AND_ADDRESS = 5;
export const CODE_GUESSES_PER_ACCOUNT_PER_HOUR = 10;
/**
 * Failed sign-ins with a passkey alone (no account named) from one address in a guess window. Nothing there can be
 * guessed (a signature is needed); the bound keeps an address from making the server verify answers without end.
 */
export const PASSKEY_LOGIN_FAILURES_PER_ADDRESS = 20;
/** Options for a sign-in with a passkey alone that one address may ask for in one window: each is a stored challenge. */
export const PASSKEY_OPTIONS_PER_ADDRESS = 100;
export const PASSKEY_OPTIONS_WINDOW_MS = 10 * MINUTE_MS;
/** Share ids one address may look up in vain (404) in one window; past it, its unknown ids answer 429. */
export const UNKNOWN_SHARE_LOOKUPS = 20;
export const UNKNOWN_SHARE_WINDOW_MS = 10 * MINUTE_MS;
/** Account names longer than any real username (32) still get a counter, but never a huge key. */
const MAX_SUBJECT_LENGTH = 64;

const rule = (name: string, limit: number, windowMs: number): ThrottleRule => Object.freeze({ name, limit, windowMs });

/*
 * The names are storage keys. The address rules count targets, not guesses, so they carry names of their own: an
 * older instance's per-address guess counts (`login-address`, `share-password-by-address`) are never read as them.
 */
export const RULES = Object.freeze({
  loginPair: rule('login-account-address', GUESSES_PER_TARGET_AND_ADDRESS, GUESS_WINDOW_MS),
  loginAccount: rule('login-account', GUESSES_PER_TARGET_PER_HOUR, TARGET_WINDOW_MS),
  loginSpray: rule('login-address-accounts', SPRAYED_TARGETS, GUESS_WINDOW_MS),
  sharePair: rule('share-password-address', GUESSES_PER_TARGET_AND_ADDRESS, GUESS_WINDOW_MS),
  shareTarget: rule('share-password', GUESSES_PER_TARGET_PER_HOUR, TARGET_WINDOW_MS),
  shareSpray: rule('share-password-address-shares', SPRAYED_TARGETS, GUESS_WINDOW_MS),
  codePair: rule('mfa-code-account-address', CODE_GUESSES_PER_ACCOUNT_AND_ADDRESS, GUESS_WINDOW_MS),
  codeAccount: rule('mfa-code-account', CODE_GUESSES_PER_ACCOUNT_PER_HOUR, TARGET_WINDOW_MS),
  codeSpray: rule('mfa-code-address-accounts', SPRAYED_TARGETS, GUESS_WINDOW_MS),
  unknownShare: rule('share-unknown-id', UNKNOWN_SHARE_LOOKUPS, UNKNOWN_SHARE_WINDOW_MS),
  passkeyLogin: rule('passkey-login-address', PASSKEY_LOGIN_FAILURES_PER_ADDRESS, GUESS_WINDOW_MS),
  passkeyOptions: rule('passkey-options-address', PASSKEY_OPTIONS_PER_ADDRESS, PASSKEY_OPTIONS_WINDOW_MS),
  // File requests' passwords: the share passwords' figures, under names of their own.
  requestPair: rule('request-password-address', GUESSES_PER_TARGET_AND_ADDRESS, GUESS_WINDOW_MS),
  requestTarget: rule('request-password', GUESSES_PER_TARGET_PER_HOUR, TARGET_WINDOW_MS),
  requestSpray: rule('request-password-address-requests', SPRAYED_TARGETS, GUESS_WINDOW_MS),
  unknownRequest: rule('request-unknown-id', UNKNOWN_SHARE_LOOKUPS, UNKNOWN_SHARE_WINDOW_MS),
});

/**
 * The counters one guess at a target touches. `pair` (this target from this address) and `target` (this target from
 * everywhere) count guesses; `spray` counts the different targets this address has failed at, one per pair window.
 * None of them is ever keyed on the address alone for guesses: what one address does at one target never refuses a
 * guess at another target.
 */
export interface GuessKeys {
  pair: ThrottleKey;
  target: ThrottleKey;
  spray: ThrottleKey | null;
}

function guessKeys(rules: [ThrottleRule, ThrottleRule, ThrottleRule], subject: string, client?: string): GuessKeys {
  const [pairRule, targetRule, sprayRule] = rules;
  return {
    // Without a client address (an embedding host that passes none) the pair falls back to the target alone.
    pair: { rule: pairRule, id: JSON.stringify([subject, client ?? null]) },
    target: { rule: targetRule, id: subject },
    spray: client === undefined ? null : { rule: sprayRule, id: client },
  };
}

/** Keyed on the lower-cased username, whether or not such an account exists, so counting reveals nothing. */
export function loginKeys(username: string, client?: string): GuessKeys {
  const account = normalizeUsername(username).slice(0, MAX_SUBJECT_LENGTH);
  return guessKeys([RULES.loginPair, RULES.loginAccount, RULES.loginSpray], account, client);
}

/** Keyed on the user's id: a code is only ever judged for an account whose password (or session) was proven. */
export function codeKeys(userId: string, client?: string): GuessKeys {
  return guessKeys([RULES.codePair, RULES.codeAccount, RULES.codeSpray], userId, client);
}

export function sharePasswordKeys(shareId: string, client?: string): GuessKeys {
  return guessKeys([RULES.sharePair, RULES.shareTarget, RULES.shareSpray], shareId, client);
}

export function requestPasswordKeys(requestId: string, client?: string): GuessKeys {
  return guessKeys([RULES.requestPair, RULES.requestTarget, RULES.requestSpray], requestId, client);
}

/** Null without a client address: there is nobody to slow down. */
export function unknownRequestKey(client?: string): ThrottleKey | null {
  return client === undefined ? null : { rule: RULES.unknownRequest, id: client };
}

/** Null without a client address: there is nobody to slow down. */
export function unknownShareKey(client?: string): ThrottleKey | null {
  return client === undefined ? null : { rule: RULES.unknownShare, id: client };
}

/** Failed passkey sign-ins of one address; null without one. */
export function passkeyLoginKey(client?: string): ThrottleKey | null {
  return client === undefined ? null : { rule: RULES.passkeyLogin, id: client };
}

/** Options for passkey sign-ins handed to one address; null without one. */
export function passkeyOptionsKey(client?: string): ThrottleKey | null {
  return client === undefined ? null : { rule: RULES.passkeyOptions, id: client };
}
