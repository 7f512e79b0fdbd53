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

/**
 * `mfa-code`: a sign-in's second step with a code; `mfa-change`: turning TOTP on or off, or new recovery codes;
 * `passkey-sign-in`: signing in with a passkey alone; `passkey-second-step`: a passkey after the password;
 * `passkey-change`: adding, renaming or removing a passkey.
 */
export type Situation =
  | 'sign-in'
  | 'register'
  | 'password-change'
  | 'mfa-code'
  | 'mfa-change'
  | 'passkey-sign-in'
  | 'passkey-second-step'
  | 'passkey-change';

const COUNTED: Record<string, [string, string]> = {
  files: ['file', 'files'],
  folders: ['folder', 'folders'],
  pastes: ['paste', 'pastes'],
  collections: ['collection', 'collections'],
  shares: ['share link', 'share links'],
  tokens: ['API token', 'API tokens'],
  passkeys: ['passkey', 'passkeys'],
  requests: ['file request', 'file requests'],
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
  if (situation === 'passkey-sign-in' || situation === 'passkey-second-step') {
    return `Too many passkeys that were not accepted. Try again in ${wait}.`;
  }
  if (situation === 'sign-in' || situation === 'password-change') {
    return `Too many wrong passwords for this account. Signing in is paused for safety: try again in ${wait}.`;
  }
  return `Too many requests at once. Try again in ${wait}.`;
}

/** The refusals particular to passkeys (docs/API.md, "Passkeys"); null lets the general rules speak. */
function passkeySentence(facts: ErrorFacts, situation: Situation): string | null {
  const { code, message } = facts;
  if (code === 'conflict' && /IP address/.test(message)) {
    return 'Passkeys do not work at an IP address. Open Coffer at its name (the address it was set up with) and try again.';
  }
  if (code === 'conflict' && facts.limit === 'passkeys') {
    return 'You have the most passkeys an account may have. Remove one you no longer use, then add the new one.';
  }
  if (code === 'conflict' && situation === 'passkey-change') return 'This passkey is registered already: it is in the list.';
  if (code === 'bad_request' && facts.field === 'response' && situation === 'passkey-change') {
    return 'Coffer did not accept this passkey: it was made for another address, or the prompt stayed open longer than 5 minutes. Open Coffer at its usual address and try again.';
  }
  if (code !== 'unauthorized') return null;
  if (situation === 'passkey-second-step' && /expired|used/.test(message)) {
    return 'This sign-in has expired. Start over with your username and password.';
  }
  if (/did not verify you/.test(message)) {
    return 'Your device did not check that it is you (no fingerprint, face, PIN or screen lock), so this passkey cannot sign you in on its own. Sign in with your password, then use the passkey as the second step.';
  }
  if (situation === 'passkey-sign-in') {
    return 'This passkey was not accepted: it may have been removed from your account. Try another passkey, or sign in with your password.';
  }
  if (situation === 'passkey-second-step') {
    return 'This passkey was not accepted: use one that is registered to this account, and try again.';
  }
  return null;
}

export function errorSentence(facts: ErrorFacts, situation?: Situation): string {
  const particular = situation?.startsWith('passkey-') ? passkeySentence(facts, situation) : null;
  if (particular) return particular;
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

/** What the browser was asked to do with a passkey: make one, sign in with one, or use one after a password. */
export type Ceremony = 'add' | 'sign-in' | 'second-step';

const CLOSED: Record<Ceremony, string> = {
  add: 'No passkey was made: the prompt was closed or timed out. Try again when you are ready.',
  'sign-in':
    'No passkey was used: the prompt was closed or timed out, or this device holds no passkey for this Coffer. Try again, or sign in with your password.',
  'second-step': 'No passkey was used: the prompt was closed or timed out. Try again when you are ready.',
};

/**
 * The browser's refusal of a passkey ceremony, by the DOMException's name (WebAuthn, "Create a New Credential" and
 * "Use an Existing Credential"); `Unsupported` is a page without WebAuthn. Browsers say NotAllowedError both for a
 * prompt the person closed and for one that timed out (and, signing in, when the device holds no passkey for this
 * site), so one sentence names all of them.
 */
export function ceremonySentence(reason: string, ceremony: Ceremony): string {
  switch (reason) {
    case 'NotAllowedError':
    case 'AbortError':
      return CLOSED[ceremony];
    case 'InvalidStateError':
      return 'This device or security key already holds a passkey for your account (it is in the list). To add another, use another device or security key.';
    case 'SecurityError':
      return 'Passkeys do not work at this address. Open Coffer at the address it was set up with, over HTTPS, and try again.';
    case 'NotSupportedError':
    case 'ConstraintError':
      return ceremony === 'add'
        ? 'This device cannot make a passkey Coffer accepts (it needs one kept on the device and unlocked by a fingerprint, face, PIN or screen lock). Try another device or security key.'
        : 'This device cannot use a passkey here. Try another device or security key.';
    case 'Unsupported':
      return 'This browser cannot use passkeys here: passkeys need a recent browser and a secure (HTTPS) address.';
    default:
      return ceremony === 'add'
        ? 'The passkey could not be made. Try again, or use another device or security key.'
        : 'The passkey did not work. Try again, or use another device or security key.';
  }
}
