import { describe, expect, it } from 'vitest';
import { ceremonySentence, errorSentence, type ErrorFacts, type Situation } from '../../web/src/dash/error-words.js';
import { inUnits, readSize } from '../../web/src/dash/size-input.js';
import { formatWait } from '../../web/src/common/format.js';
import { ssoSentence } from '../../web/src/dash/sso-words.js';
import { SSO_FAILURES } from '../../src/application/ports/identity-provider.js';

/** What an error answer of the API looks like to the dashboard, as the server words it. */
const bad = (path: string, message: string): ErrorFacts => ({
  status: 400,
  code: 'bad_request',
  message,
  issues: [{ path, message }],
});

/** A field path (`limits.storage`, `expiresAt`), a JSON pointer or an error code: never in a sentence for people. */
const MACHINE_WORDS = /\b[a-z]+[A-Z]\w*\b|\b\w+\.\w*[a-z]\w*\b|\/\w+\/|\b[a-z]+_[a-z_]+\b/;

describe('error sentences', () => {
  // Every refusal of a field the dashboard can meet, worded as the server words it today.
  const refusals: [ErrorFacts, RegExp][] = [
    [bad('limits.storage', 'limits.storage must be a decimal string of bytes'), /^Type the storage maximum as a number/],
    [bad('limits.storage', 'limits.storage is too large'), /^That storage maximum is too large\.$/],
    [bad('limits.files', 'limits.files must be at least 0'), /^A maximum cannot be below 0\.$/],
    [bad('expiresAt', 'expiresAt must lie in the future'), /^The expiry has passed already/],
    [bad('expiresAt', 'expiresAt must be an ISO 8601 timestamp with a time zone, such as 2026-12-01T18:00:00Z'), /^Choose when the link expires\.$/],
    [bad('maxViews', 'maxViews must be at least 1'), /^Max views must be a whole number of at least 1/],
    [bad('maxDownloads', 'maxDownloads must be a whole number of at least 1, or null'), /^Max downloads must be/],
    [
      bad('username', 'username must be 2 to 32 characters: letters, digits, ".", "_" or "-", starting with a letter or digit'),
      /^A username has 2 to 32 characters/,
    ],
    [bad('username', 'username is required'), /^Enter a username\.$/],
    [bad('password', 'password must be 8 to 256 characters'), /^The password must be 8 to 256 characters\.$/],
    [bad('password', 'password must be a string of at most 1024 characters, or null'), /^A share password can have at most 1024 characters\.$/],
    [bad('newPassword', 'newPassword must be 8 to 256 characters'), /^The new password must be 8 to 256 characters\.$/],
    [bad('currentPassword', 'currentPassword is required'), /^Enter your current password\.$/],
    [bad('name', 'name must not be empty'), /^Give it a name/],
    [bad('name', 'name must be valid Unicode text (it holds a lone surrogate)'), /^The name was not accepted/],
    [bad('query', 'query must be at most 256 characters'), /^The search must be at most 256 characters\.$/],
    [bad('type', 'type must be a syntax label such as text, markdown or javascript'), /^Choose a type from the list\.$/],
    [bad('parentId', 'Folders may nest at most 32 levels deep'), /^Folders may nest at most 32 levels deep\.$/],
    [bad('fileId', 'A collection holds at most 10000 files'), /^A collection holds at most 10000 files\.$/],
    [bad('limits.bogus', 'limits.bogus is not a field of this request'), /^The page sent something the server did not accept/],
    [bad('', 'The request body must be an object'), /^The page sent something the server did not accept/],
    [bad('cursor', 'cursor is not a cursor of this listing'), /^The page sent something the server did not accept/],
  ];
  it('has a check for machine words that catches them', () => {
    for (const raw of ['limits.storage must be', 'expiresAt must lie', 'rate_limited', 'see /limits/storage']) expect(raw).toMatch(MACHINE_WORDS);
    for (const words of ['Enter a username.', 'Max views must be at least 1.', 'Room left: 1 MB.']) expect(words).not.toMatch(MACHINE_WORDS);
  });

  for (const [facts, expected] of refusals) {
    it(`says "${facts.message}" without machine words`, () => {
      const said = errorSentence(facts);
      expect(said).toMatch(expected);
      expect(said).not.toMatch(MACHINE_WORDS);
      expect(said).toMatch(/[.!?]$/);
    });
  }

  it('names each refused field once, in the order the server gave', () => {
    const facts: ErrorFacts = {
      status: 400,
      code: 'bad_request',
      message: 'maxViews must be at least 1; maxDownloads must be at least 1',
      issues: [
        { path: 'maxViews', message: 'maxViews must be at least 1' },
        { path: 'maxDownloads', message: 'maxDownloads must be at least 1' },
      ],
    };
    expect(errorSentence(facts)).toBe(
      'Max views must be a whole number of at least 1; leave it empty for no limit. ' +
        'Max downloads must be a whole number of at least 1; leave it empty for no limit.',
    );
  });

  it('reads the one refused field from `field` when no issues came', () => {
    const facts: ErrorFacts = { status: 400, code: 'bad_request', message: 'expiresAt must lie in the future', field: 'expiresAt' };
    expect(errorSentence(facts)).toMatch(/^The expiry has passed already/);
  });

  it('says a wait in words: the throttle of guesses, a busy server, any other', () => {
    const limited = (retryAfter: number): ErrorFacts => ({ status: 429, code: 'rate_limited', message: 'Too many attempts; try again later', retryAfter });
    expect(errorSentence(limited(1795), 'sign-in')).toBe(
      'Too many wrong passwords for this account. Signing in is paused for safety: try again in 30 minutes.',
    );
    expect(errorSentence(limited(1), 'sign-in')).toBe('The server is busy. Try again in 1 second.');
    expect(errorSentence(limited(120))).toBe('Too many requests at once. Try again in 2 minutes.');
  });

  it('tells a wrong password at sign-in from an ended session, and a closed registration from a wrong current password', () => {
    const unauthorized: ErrorFacts = { status: 401, code: 'unauthorized', message: 'Invalid username or password' };
    expect(errorSentence(unauthorized, 'sign-in')).toBe('The username or the password is wrong. Check both and try again.');
    expect(errorSentence(unauthorized)).toMatch(/^You are signed out/);
    const forbidden: ErrorFacts = { status: 403, code: 'forbidden', message: 'The current password is wrong' };
    expect(errorSentence(forbidden, 'password-change')).toBe('Your current password is wrong.');
    expect(errorSentence({ ...forbidden, message: 'Registration is closed' }, 'register')).toMatch(/^Registration is closed/);
  });

  it('names a reached limit with its figures in units', () => {
    const storage: ErrorFacts = {
      status: 403,
      code: 'limit_reached',
      message: 'The storage limit has been reached: 400 bytes of at most 1000 bytes in use',
      limit: 'storage',
      usage: { max: '1000', current: '400' },
    };
    expect(errorSentence(storage)).toBe('Not enough room: your storage limit is 1 kB, with 400 bytes in use. Room left: 600 bytes.');
    const files: ErrorFacts = { status: 403, code: 'limit_reached', message: 'The files limit has been reached: 20 of at most 20 in use', limit: 'files', usage: { max: 20, current: 20 } };
    expect(errorSentence(files)).toBe('You have reached your limit of 20 files. Delete some to make room, or ask an admin to raise the limit.');
  });

  it('says sizes, not byte counts, of what is too large', () => {
    const file: ErrorFacts = { status: 413, code: 'payload_too_large', message: 'A file holds at most 2000000 bytes', maxBytes: 2_000_000 };
    expect(errorSentence(file)).toBe('This file is too large: one file can hold at most 2 MB.');
    const paste: ErrorFacts = { status: 413, code: 'payload_too_large', message: 'A paste holds at most 1000000 bytes' };
    expect(errorSentence(paste)).toBe('A paste holds at most 1 MB.');
  });

  it('never shows a code, even for one it does not know', () => {
    for (const code of ['gone', 'unavailable', 'checksum_mismatch', 'internal', 'failed', 'teapot_error', 'not_found', 'conflict']) {
      const said = errorSentence({ status: code === 'internal' ? 500 : 418, code, message: `${code} happened` });
      expect(said).not.toContain(code);
      expect(said).not.toMatch(MACHINE_WORDS);
    }
    expect(errorSentence({ status: 404, code: 'not_found', message: 'Folder not found' })).toMatch(/^This folder no longer exists/);
    expect(errorSentence({ status: 409, code: 'conflict', message: 'This item is already shared', shareId: 'x' })).toMatch(/Shares page/);
  });
});

describe('passkey sentences', () => {
  // The server's refusals (src/application/auth/passkeys/, routes/passkeys.ts), in the situation the page meets them.
  const unauthorized = (message: string): ErrorFacts => ({ status: 401, code: 'unauthorized', message });
  const refusals: [ErrorFacts, Situation, RegExp][] = [
    [
      { ...bad('response', 'The passkey was not registered: Unexpected registration response origin "http://other.localhost:3000", expected "http://localhost:3000"'), issues: undefined, field: 'response' },
      'passkey-change',
      /^Coffer did not accept this passkey: it was made for another address/,
    ],
    [
      { status: 409, code: 'conflict', message: 'You have the most passkeys an account may have (20); remove one first', limit: 'passkeys' },
      'passkey-change',
      /^You have the most passkeys an account may have\. Remove one/,
    ],
    [{ status: 409, code: 'conflict', message: 'This passkey is registered already' }, 'passkey-change', /^This passkey is registered already: it is in the list\.$/],
    [
      { status: 409, code: 'conflict', message: 'Passkeys need a domain name, and this server was reached at the IP address 127.0.0.1: open it at a name' },
      'passkey-sign-in',
      /^Passkeys do not work at an IP address/,
    ],
    [unauthorized('The passkey was not accepted; ask for new options and try again'), 'passkey-sign-in', /^This passkey was not accepted: it may have been removed/],
    [
      unauthorized('The authenticator did not verify you (no PIN, fingerprint or face): sign in with your password and use the passkey as the second factor'),
      'passkey-sign-in',
      /^Your device did not check that it is you/,
    ],
    [unauthorized('The passkey was not accepted; ask for new options and try again'), 'passkey-second-step', /^This passkey was not accepted: use one that is registered to this account/],
    [unauthorized('The sign-in has expired or was used; sign in again'), 'passkey-second-step', /^This sign-in has expired\. Start over/],
    [{ status: 429, code: 'rate_limited', message: 'Too many attempts', retryAfter: 600 }, 'passkey-sign-in', /^Too many passkeys that were not accepted\. Try again in 10 minutes\.$/],
    [{ status: 404, code: 'not_found', message: 'Passkey not found' }, 'passkey-change', /^This passkey no longer exists/],
    [bad('name', 'name must be at most 64 characters'), 'passkey-change', /^The name must be at most 64 characters\.$/],
  ];
  for (const [facts, situation, expected] of refusals) {
    it(`says "${facts.message}" (${situation}) without machine words`, () => {
      const said = errorSentence(facts, situation);
      expect(said).toMatch(expected);
      expect(said).not.toMatch(MACHINE_WORDS);
    });
  }

  it('says why the browser refused a ceremony, by the DOMException name, and never repeats the browser\'s words', () => {
    const names = ['NotAllowedError', 'AbortError', 'InvalidStateError', 'SecurityError', 'NotSupportedError', 'ConstraintError', 'Unsupported', 'UnknownError'];
    for (const ceremony of ['add', 'sign-in', 'second-step'] as const) {
      for (const name of names) {
        const said = ceremonySentence(name, ceremony);
        expect(said).not.toMatch(MACHINE_WORDS);
        expect(said).toMatch(/[.!?]$/);
      }
    }
    expect(ceremonySentence('NotAllowedError', 'add')).toMatch(/^No passkey was made: the prompt was closed or timed out/);
    expect(ceremonySentence('NotAllowedError', 'sign-in')).toMatch(/or this device holds no passkey for this Coffer/);
    expect(ceremonySentence('InvalidStateError', 'add')).toMatch(/already holds a passkey for your account/);
    expect(ceremonySentence('SecurityError', 'sign-in')).toMatch(/^Passkeys do not work at this address/);
    expect(ceremonySentence('Unsupported', 'add')).toMatch(/^This browser cannot use passkeys here/);
  });
});

describe('waits in words', () => {
  it('rounds up, in the largest sensible unit', () => {
    expect(formatWait(0.2)).toBe('1 second');
    expect(formatWait(45)).toBe('45 seconds');
    expect(formatWait(60)).toBe('1 minute');
    expect(formatWait(61)).toBe('2 minutes');
    expect(formatWait(1795)).toBe('30 minutes');
    expect(formatWait(3600)).toBe('1 hour');
    expect(formatWait(5400)).toBe('1 hour and 30 minutes');
    expect(formatWait(7200)).toBe('2 hours');
  });
});

describe('sizes as typed', () => {
  it('reads a number with the chosen unit, or a unit typed with it, exactly in decimal units', () => {
    expect(readSize('5', 'MB')).toEqual({ bytes: 5_000_000, unit: null });
    expect(readSize('5 MB', 'kB')).toEqual({ bytes: 5_000_000, unit: 'MB' });
    expect(readSize(' 5mb ', 'GB')).toEqual({ bytes: 5_000_000, unit: 'MB' });
    expect(readSize('5 KB', 'GB')).toEqual({ bytes: 5000, unit: 'kB' });
    expect(readSize('1.1', 'MB')).toEqual({ bytes: 1_100_000, unit: null });
    expect(readSize('0.000001', 'TB')).toEqual({ bytes: 1_000_000, unit: null });
    expect(readSize('2.5 TB', 'kB')).toEqual({ bytes: 2_500_000_000_000, unit: 'TB' });
    expect(readSize('1500 bytes', 'GB')).toEqual({ bytes: 1500, unit: null });
    expect(readSize('1.0005', 'kB')).toEqual({ bytes: 1001, unit: null });
  });

  it('explains what it cannot read', () => {
    expect(readSize('five', 'MB')).toHaveProperty('problem');
    expect(readSize('1,000', 'MB')).toHaveProperty('problem');
    expect(readSize('5 XB', 'MB')).toEqual({ problem: 'Use one of the units B, kB, MB, GB or TB (“XB” is not one).' });
    expect(readSize('-5', 'MB')).toHaveProperty('problem');
    expect(readSize('99999999', 'TB')).toEqual({ problem: 'That size is too large.' });
  });

  it('asks rather than guesses where "." may group thousands (a decimal comma locale)', () => {
    expect(readSize('1.500', 'MB', ',')).toEqual({ problem: '“1.500” could mean 1,5 or 1500: type 1500 or 1,5.' });
    expect(readSize('1,500', 'MB', ',')).toEqual({ bytes: 1_500_000, unit: null });
    expect(readSize('1.5', 'MB', ',')).toEqual({ bytes: 1_500_000, unit: null });
    expect(readSize('1.5000', 'MB', ',')).toEqual({ bytes: 1_500_000, unit: null });
    // Where "." is the decimal point, "1.500" is one and a half.
    expect(readSize('1.500', 'MB', '.')).toEqual({ bytes: 1_500_000, unit: null });
  });

  it('writes a byte count back in the largest unit it fills, exactly', () => {
    expect(inUnits(5_000_000)).toEqual({ value: '5', unit: 'MB' });
    expect(inUnits(1_234_567)).toEqual({ value: '1.234567', unit: 'MB' });
    expect(inUnits(1_000_000_000_000)).toEqual({ value: '1', unit: 'TB' });
    expect(inUnits(500)).toEqual({ value: '0.5', unit: 'kB' });
    expect(inUnits(0)).toEqual({ value: '0', unit: 'kB' });
    for (const bytes of [1, 999, 1_234_567, 5_242_880, 9_007_199_254_740_991]) {
      const { value, unit } = inUnits(bytes);
      expect(readSize(value, unit)).toEqual({ bytes, unit: null });
    }
  });
});

describe('single sign-on sentences', () => {
  it('say each reason the server can give in words of their own, and something for any other', () => {
    const sentences = SSO_FAILURES.map((reason) => ssoSentence(reason));
    expect(new Set(sentences).size).toBe(SSO_FAILURES.length);
    for (const text of sentences) {
      expect(text).toMatch(/^[A-Z].*\.$/);
      expect(text).not.toMatch(MACHINE_WORDS);
    }
    expect(ssoSentence('something-new')).toBe(ssoSentence('failed'));
  });
});
