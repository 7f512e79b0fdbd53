import { formatCount, formatSize, formatWait } from '../common/format.js';

/**
 * The one place where an API error becomes a sentence for people: about what they typed or did, never a field path,
 * a JSON pointer or an error code. The API keeps its machine shape (`error`, `issues`, `limit`, ...); only the words
 * shown change. Sentences are keyed on the code, the field in question and, where the same code means different
 * things, the situation a form names (a 401 while signing in is a wrong password; anywhere else, an ended session).
 */
export interface ErrorFacts {
  /** 0 when the server could not be reached. */
  status: number;
  code: string;
  message: string;
  issues?: { path: string; message: string }[] | undefined;
  field?: string | undefined;
  limit?: string | null | undefined;
  usage?: { max: number | string; current: number | string } | null | undefined;
  retryAfter?: number | undefined;
  maxBytes?: number | undefined;
  shareId?: string | undefined;
}

/** `mfa-code`: a sign-in's second step; `mfa-change`: turning TOTP on or off, or new recovery codes. */
export type Situation = 'sign-in' | 'register' | 'password-change' | 'mfa-code' | 'mfa-change';

const COUNTED: Record<string, [string, string]> = {
  files: ['file', 'files'],
  folders: ['folder', 'folders'],
  pastes: ['paste', 'pastes'],
  collections: ['collection', 'collections'],
  shares: ['share link', 'share links'],
  tokens: ['API token', 'API tokens'],
};

/** How each field is named in a sentence, by the last part of its path (`limits.storage` is `storage`). */
const LABELS: Record<string, string> = {
  username: 'The username',
  password: 'The password',
  currentPassword: 'Your current password',
  newPassword: 'The new password',
  name: 'The name',
  query: 'The search',
  content: 'The content',
  expiresAt: 'The expiry',
  maxViews: 'Max views',
  maxDownloads: 'Max downloads',
  storage: 'The storage maximum',
};

const REQUIRED: Record<string, string> = {
  username: 'Enter a username.',
  password: 'Enter a password.',
  currentPassword: 'Enter your current password.',
  newPassword: 'Enter a new password.',
  name: 'Give it a name: a name cannot be empty, or only spaces and invisible characters.',
  content: 'Type something to save.',
};

/** Sentences for one field, whatever the server's words; null lets the general rules speak. */
const FIELD_SENTENCES: Record<string, (rest: string) => string | null> = {
  username: (rest) =>
    /^must be 2 to 32 characters/.test(rest)
      ? 'A username has 2 to 32 characters (letters, digits, “.”, “_” or “-”) and starts with a letter or digit.'
      : null,
  password: (rest) => {
    const most = /at most (\d+) characters/.exec(rest)?.[1];
    return most && !/8 to/.test(rest) ? `A share password can have at most ${most} characters.` : null;
  },
  newPassword: (rest) => (/differ/.test(rest) ? 'Choose a new password that differs from the current one.' : null),
  storage: (rest) =>
    rest === 'is too large' ? 'That storage maximum is too large.' : 'Type the storage maximum as a number, such as 5 or 2.5, and choose a unit.',
  expiresAt: (rest) =>
    /future/.test(rest) ? 'The expiry has passed already: choose a date and time in the future.' : 'Choose when the link expires.',
  maxViews: () => 'Max views must be a whole number of at least 1; leave it empty for no limit.',
  maxDownloads: () => 'Max downloads must be a whole number of at least 1; leave it empty for no limit.',
  type: () => 'Choose a type from the list.',
};

const lastPart = (path: string) => path.split('.').pop() ?? path;

function sentence(text: string): string {
  const trimmed = text.trim().replace(/;\s+/g, ': ');
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** Byte counts in a server's words ("at most 1048576 bytes") as sizes ("at most 1 MB"). */
const withSizes = (text: string) => text.replace(/\b(\d+) bytes\b/g, (_, n: string) => formatSize(n));

/** One refused field as a sentence. A message that does not start with its path was written for people already. */
function issueSentence(path: string, message: string): string {
  if (!path) return /^The request body /.test(message) ? FALLBACK : sentence(withSizes(message));
  if (!message.startsWith(`${path} `)) return sentence(withSizes(message));
  const field = lastPart(path);
  const rest = message.slice(path.length + 1);
  if (rest === 'is not a field of this request') return FALLBACK;
  if (/^(is required|must not be empty)$/.test(rest) && REQUIRED[field]) return REQUIRED[field];
  const special = FIELD_SENTENCES[field]?.(rest);
  if (special) return special;
  if (path.startsWith('limits.')) {
    return /at least 0/.test(rest) ? 'A maximum cannot be below 0.' : 'Type the maximum as a whole number, or leave it empty for the default.';
  }
  const label = LABELS[field];
  if (!label) return FALLBACK;
  const readable = /^(must be at (most|least) \d+( characters( long)?)?|must be \d+ to \d+ characters|must lie in the future)$/;
  return readable.test(rest) ? sentence(`${label} ${rest}`) : `${label} was not accepted. Check it and try again.`;
}

/** For what only a changed page could send wrong: nothing the person can fix but a reload. */
const FALLBACK = 'The page sent something the server did not accept. Reload the page and try again.';

function limitSentence(limit: string, usage: ErrorFacts['usage']): string {
  if (limit === 'storage') {
    if (!usage) return 'Not enough room: your storage limit has been reached.';
    const left = Math.max(0, Number(usage.max) - Number(usage.current));
    return `Not enough room: your storage limit is ${formatSize(String(usage.max))}, with ${formatSize(String(usage.current))} in use. Room left: ${formatSize(String(left))}.`;
  }
  const [one, many] = COUNTED[limit] ?? ['item', 'items'];
  const reached = usage ? `your limit of ${formatCount(Number(usage.max), one, many)}` : `your ${many} limit`;
  return `You have reached ${reached}. Delete some to make room, or ask an admin to raise the limit.`;
}

function waitSentence(facts: ErrorFacts, situation: Situation | undefined): string {
  const wait = formatWait(facts.retryAfter ?? 60);
  // A short pause is the server shedding load; a long one on a password is the throttle of guesses.
  if ((facts.retryAfter ?? 60) <= 5) return `The server is busy. Try again in ${wait}.`;
  if (situation === 'mfa-code' || situation === 'mfa-change') {
    return `Too many wrong codes for this account. Try again in ${wait}.`;
  }
  if (situation === 'sign-in' || situation === 'password-change') {
    return `Too many wrong passwords for this account. Signing in is paused for safety: try again in ${wait}.`;
  }
  return `Too many requests at once. Try again in ${wait}.`;
}

export function errorSentence(facts: ErrorFacts, situation?: Situation): string {
  switch (facts.code) {
    case 'offline':
      return 'The server could not be reached. Check your connection and try again.';
    case 'bad_request': {
      const issues = facts.issues?.length ? facts.issues : facts.field ? [{ path: facts.field, message: facts.message }] : [];
      if (issues.length === 0) return facts.message ? sentence(withSizes(facts.message)) : FALLBACK;
      return [...new Set(issues.map((issue) => issueSentence(issue.path, issue.message)))].join(' ');
    }
    case 'unauthorized':
      if (situation === 'mfa-code') {
        return /expired|used/.test(facts.message)
          ? 'This sign-in has expired. Start over with your username and password.'
          : 'The code is wrong. Check your authenticator app (or the recovery code) and try again.';
      }
      return situation === 'sign-in'
        ? 'The username or the password is wrong. Check both and try again.'
        : 'You are signed out: your session has ended. Reload the page to sign in again.';
    case 'forbidden':
      if (situation === 'password-change') return 'Your current password is wrong.';
      if (situation === 'mfa-change') return sentence(facts.message);
      if (situation === 'register') return 'Registration is closed: ask an admin to create an account for you.';
      // PASSWORD_LOGIN: the server's words name the way in (“use Sign in with …”).
      if (situation === 'sign-in') return sentence(facts.message);
      return 'You are not allowed to do this.';
    case 'not_found': {
      const what = /^(\w+) not found$/.exec(facts.message)?.[1]?.toLowerCase();
      return what
        ? `This ${what} no longer exists: it may have been deleted meanwhile. Reload the page to see what is there.`
        : 'This no longer exists: it may have been deleted meanwhile. Reload the page to see what is there.';
    }
    case 'conflict':
      if (facts.shareId) return 'This is shared already: its link is on the Shares page.';
      return /Upload-Offset/.test(facts.message) ? 'The upload was interrupted. Try again.' : sentence(facts.message);
    case 'limit_reached':
      return limitSentence(facts.limit ?? '', facts.usage);
    case 'payload_too_large':
      if (/^Request body/.test(facts.message)) {
        return `That is too much to send at once${facts.maxBytes ? `: at most ${formatSize(String(facts.maxBytes))}` : ''}.`;
      }
      return facts.maxBytes
        ? `This file is too large: one file can hold at most ${formatSize(String(facts.maxBytes))}.`
        : sentence(withSizes(facts.message));
    case 'rate_limited':
      return waitSentence(facts, situation);
    case 'gone':
      return 'This share is no longer available: it expired or reached its limits.';
    case 'unavailable':
      return 'The server cannot do this right now. Try again in a moment.';
    case 'precondition_failed':
    case 'unsupported_media_type':
    case 'checksum_mismatch':
      return 'The upload failed on its way to the server. Try again.';
    default:
      return facts.status >= 500 || facts.code === 'internal'
        ? 'Something went wrong on the server. Try again; if it keeps happening, tell your admin.'
        : 'The server could not do this. Try again in a moment.';
  }
}
