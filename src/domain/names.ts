import { badRequest } from './errors.js';

export const NAME_MAX = 255;

// Control characters, bidi overrides/isolates and other invisible format characters never survive into a name.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/**
 * Turns whatever a client sent into a display name: no path separators, no control or bidi characters,
 * trimmed and bounded. Names are only ever shown; they never become a path on disk.
 */
export function cleanName(raw: string, max = NAME_MAX): string {
  let name = raw.normalize('NFC').replace(UNSAFE, '').replace(/[/\\]/g, '_').trim();
  if (name === '.' || name === '..') name = name.replace(/\./g, '_');
  const chars = [...name];
  if (chars.length > max) name = chars.slice(0, max).join('').trim();
  return name;
}

/** A cleaned, non-empty name, or a bad_request naming the field. */
export function requireName(raw: string, field = 'name', max = NAME_MAX): string {
  const name = cleanName(raw, max);
  if (name.length === 0) throw badRequest(`${field} must not be empty`, { field });
  return name;
}
