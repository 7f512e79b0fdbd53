import { badRequest } from './errors.js';

export const NAME_MAX = 255;

// Control characters (Cc) and every invisible format character (Cf: bidi overrides and isolates, zero-width
// characters, the soft hyphen, the Arabic letter mark, BOM, ...) never survive into a name; nor does the tag block
// (its assigned characters are Cf, the rest is reserved for more of them) or U+2065, kept from the bidi range.
const UNSAFE = /[\p{Cc}\p{Cf}\u2065\u{E0000}-\u{E007F}]/gu;
// In a `u` pattern a surrogate range matches only surrogates that are not half of a pair.
const LONE_SURROGATE = /[\ud800-\udfff]/u;
const LONE_SURROGATES = /[\ud800-\udfff]/gu;

/** Whether the text is well-formed Unicode: JSON escapes (`"\ud800"`) can deliver a half of a surrogate pair. */
export const isWellFormed = (text: string): boolean => !LONE_SURROGATE.test(text);

/** The text with every lone surrogate replaced by U+FFFD, as a UTF-8 encoder would write it. */
export const wellFormed = (text: string): string => text.replace(LONE_SURROGATES, '\ufffd');

/**
 * Turns whatever a client sent into a display name: well-formed, no path separators, no control or invisible format
 * characters, trimmed and bounded. Names are only ever shown; they never become a path on disk.
 */
export function cleanName(raw: string, max = NAME_MAX): string {
  let name = wellFormed(raw).normalize('NFC').replace(UNSAFE, '').replace(/[/\\]/g, '_').trim();
  if (name === '.' || name === '..') name = name.replace(/\./g, '_');
  const chars = [...name];
  if (chars.length > max) name = chars.slice(0, max).join('').trim();
  return name;
}

/**
 * A cleaned, non-empty name, or a bad_request naming the field. A name holding a lone surrogate is refused rather
 * than repaired: the client asked for exactly that name, and no stored name can hold it.
 */
export function requireName(raw: string, field = 'name', max = NAME_MAX): string {
  if (!isWellFormed(raw)) throw badRequest(`${field} must be valid Unicode text (it holds a lone surrogate)`, { field });
  const name = cleanName(raw, max);
  if (name.length === 0) throw badRequest(`${field} must not be empty`, { field });
  return name;
}
