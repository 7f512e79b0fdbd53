import { badRequest, isWellFormed } from '../../domain/index.js';
import type { CreatedKey, NameKey } from '../ports/index.js';

/**
 * Cursors are opaque to clients: base64url (no padding) of a small JSON array naming the listing and the key of the
 * last row handed out. They are not secret (they hold the caller's own name and id) and need no signature: a forged
 * cursor can only start the caller's own listing somewhere else. Parsing is strict, so anything that is not exactly
 * what `encode` writes is bad_request, and what reaches a repository is typed values only: a string and an id, or a
 * Date and an id, never client JSON.
 */

/** Longer than any cursor this service writes (a 255-character name lower-cased, as UTF-8, in base64). */
export const CURSOR_MAX_LENGTH = 4096;
const ID_MAX = 128;
const LOWER_MAX = 1024;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

export type CreatedListing = 'pastes' | 'collections' | 'tokens' | 'requests' | 'activity';

/** Where the root listing goes on: folders after a key, or files after a key (null: the first file). */
export type RootPosition = { kind: 'folders'; after: NameKey } | { kind: 'files'; after: NameKey | null };

function encode(value: unknown[]): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const malformed = () => badRequest('cursor is not a cursor of this listing', { field: 'cursor' });

/** The JSON array a cursor carries, or bad_request; only the exact text `encode` writes is accepted. */
function decode(cursor: string): unknown[] {
  if (cursor.length === 0 || cursor.length > CURSOR_MAX_LENGTH || !BASE64URL.test(cursor) || cursor.length % 4 === 1) {
    throw malformed();
  }
  let value: unknown;
  try {
    const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    const text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    value = JSON.parse(text);
  } catch {
    throw malformed();
  }
  // Another spelling of the same bytes (stray bits in the last character, other JSON spacing) is not ours.
  if (!Array.isArray(value) || encode(value) !== cursor) throw malformed();
  return value;
}

const isId = (v: unknown): v is string => typeof v === 'string' && v.length >= 1 && v.length <= ID_MAX;
const isLower = (v: unknown): v is string => typeof v === 'string' && v.length <= LOWER_MAX && isWellFormed(v);
/** Milliseconds since the epoch that a Date can hold. */
const isTime = (v: unknown): v is number => Number.isSafeInteger(v) && Math.abs(v as number) <= 8.64e15;

export function createdCursor(listing: CreatedListing, last: { createdAt: Date; id: string }): string {
  return encode([listing, last.createdAt.getTime(), last.id]);
}

/** The key a creation-ordered listing's cursor names; null for no cursor. */
export function parseCreatedCursor(listing: CreatedListing, cursor: string | null | undefined): CreatedKey | null {
  if (cursor === undefined || cursor === null) return null;
  const value = decode(cursor);
  const [tag, time, id] = value;
  if (value.length !== 3 || tag !== listing || !isTime(time) || !isId(id)) throw malformed();
  return { createdAt: new Date(time), id };
}

export function rootCursor(position: RootPosition): string {
  const { kind, after } = position;
  return encode(after === null ? [kind] : [kind, after.lower, after.id]);
}

/** Where the root listing's cursor says to go on; null (no cursor) is the first folder. */
export function parseRootCursor(cursor: string | null | undefined): RootPosition | null {
  if (cursor === undefined || cursor === null) return null;
  const value = decode(cursor);
  const [kind, lower, id] = value;
  if (kind === 'files' && value.length === 1) return { kind, after: null };
  if ((kind !== 'folders' && kind !== 'files') || value.length !== 3 || !isLower(lower) || !isId(id)) throw malformed();
  return { kind, after: { lower, id } };
}
