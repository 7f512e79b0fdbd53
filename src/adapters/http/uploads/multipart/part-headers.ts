import { BOUNDARY_TEXT, isTokenChar } from './tokens.js';

/**
 * The text side of multipart/form-data (RFC 7578, RFC 2046): Content-Type and Content-Disposition values with their
 * parameters (quoted strings, RFC 5987/2231 extended values), and the text decodings a form uses, all as busboy 1.6
 * reads them (its `defParamCharset: 'utf8'`). Header bytes are read as latin1, one character per byte, so no byte is
 * lost before a value is decoded.
 */

/** The header fields of one part: lower-cased names, each with its values in the order they came. */
export type PartHeaders = Map<string, string[]>;

/** A header type or parameter value: a type, its parameters by lower-cased name (the first of a name wins). */
export interface HeaderValue {
  type: string;
  params: Map<string, string>;
}

const isAlnum = (code: number): boolean =>
  (code >= 0x61 && code <= 0x7a) || // a-z
  (code >= 0x41 && code <= 0x5a) || // A-Z
  (code >= 0x30 && code <= 0x39); // 0-9

/** RFC 5987 attr-char: what an extended value holds besides %XX escapes. */
const isAttrChar = (code: number): boolean => isAlnum(code) || '!#$&+-.^_`|~'.includes(String.fromCharCode(code));

/** RFC 5987 mime-charsetc: the characters of an extended value's charset. */
const isCharsetChar = (code: number): boolean => isAlnum(code) || '!#$%&+-^_`{}~'.includes(String.fromCharCode(code));

/** qdtext: anything but controls (tab aside), DEL, the quote and the backslash. */
const isQdtext = (code: number): boolean =>
  code === 0x09 || (code >= 0x20 && code !== 0x22 && code !== 0x5c && code !== 0x7f && code <= 0xff);

const isSpace = (code: number): boolean => code === 0x20 || code === 0x09;

/** `type/subtype; name=value; …` (lower-cased type and subtype). undefined: malformed. */
export function parseContentType(text: string): HeaderValue | undefined {
  let i = 0;
  while (i < text.length && isTokenChar(text.charCodeAt(i))) i++;
  if (i === 0 || text.charCodeAt(i) !== 0x2f /* / */) return undefined;
  const subtypeStart = ++i;
  while (i < text.length && isTokenChar(text.charCodeAt(i))) i++;
  if (i === subtypeStart) return undefined;
  const params = parseParams(text, i, false);
  return params && { type: text.slice(0, i).toLowerCase(), params };
}

/**
 * `form-data; name="…"; filename="…"; filename*=UTF-8''…` (lower-cased type). Plain values are taken as UTF-8, as
 * browsers send them (the bytes were read as latin1); extended values (`name*=charset'lang'%XX…`) are decoded by
 * their charset. undefined: malformed.
 */
export function parseDisposition(text: string): HeaderValue | undefined {
  if (text === '') return undefined;
  let i = 0;
  while (i < text.length && isTokenChar(text.charCodeAt(i))) i++;
  const params = parseParams(text, i, true);
  return params && { type: text.slice(0, i).toLowerCase(), params };
}

/** The `; name=value` list from `i` on. `disposition`: extended values allowed, plain ones re-decoded as UTF-8. */
function parseParams(text: string, i: number, disposition: boolean): Map<string, string> | undefined {
  const params = new Map<string, string>();
  for (;;) {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    if (i === text.length) return params;
    if (text.charCodeAt(i) !== 0x3b /* ; */) return undefined;
    i++;
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    const nameStart = i;
    while (i < text.length && isTokenChar(text.charCodeAt(i))) i++;
    if (i === nameStart || text.charCodeAt(i) !== 0x3d /* = */) return undefined;
    const name = text.slice(nameStart, i).toLowerCase();
    i++;
    let value: string | undefined;
    if (disposition && name.endsWith('*')) {
      const extended = readExtendedValue(text, i);
      if (!extended) return undefined;
      ({ value, end: i } = extended);
    } else if (text.charCodeAt(i) === 0x22 /* " */) {
      const quoted = readQuotedString(text, i);
      if (!quoted) return undefined;
      ({ value, end: i } = quoted);
      if (disposition) value = utf8OfLatin1(value);
    } else {
      const start = i;
      while (i < text.length && isTokenChar(text.charCodeAt(i))) i++;
      if (i === start) return undefined;
      value = text.slice(start, i);
      if (disposition) value = utf8OfLatin1(value);
    }
    if (!params.has(name)) params.set(name, value);
  }
}

/**
 * A quoted string from its opening quote at `i`: the value without its quotes, and where it ends. As busboy reads it,
 * a backslash escapes only a quote or a backslash and is kept before any other character: browsers do not escape
 * backslashes in a file name (they percent-encode quotes, CR and LF), so `"C:\Users\me\a.txt"` keeps its separators.
 */
function readQuotedString(text: string, i: number): { value: string; end: number } | undefined {
  let value = '';
  let escaping = false;
  for (i++; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x5c /* \ */ || code === 0x22 /* " */) {
      if (escaping) {
        value += text[i];
        escaping = false;
      } else if (code === 0x22) {
        return { value, end: i + 1 };
      } else {
        escaping = true;
      }
      continue;
    }
    if (escaping) {
      value += '\\';
      escaping = false;
    }
    if (!isQdtext(code)) return undefined;
    value += text[i];
  }
  return undefined; // no closing quote
}

/**
 * An RFC 5987 ext-value from `i`: `charset'language'value`, the value percent-encoded in that charset. As busboy: the
 * value may be empty unless the header ends right there, and the charset must be one `decodeParam` knows.
 */
function readExtendedValue(text: string, i: number): { value: string; end: number } | undefined {
  const charsetStart = i;
  while (i < text.length && isCharsetChar(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) !== 0x27 /* ' */) return undefined;
  const charset = text.slice(charsetStart, i);
  const languageEnd = text.indexOf("'", i + 1);
  if (languageEnd === -1) return undefined;
  i = languageEnd + 1;
  if (i === text.length) return undefined;
  const bytes: number[] = [];
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 0x25 /* % */) {
      const hex = text.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return undefined;
      bytes.push(parseInt(hex, 16));
      i += 3;
    } else if (isAttrChar(code)) {
      bytes.push(code);
      i++;
    } else {
      break;
    }
  }
  const value = bytes.length === 0 ? '' : decodeParam(Buffer.from(bytes), charset);
  return value === undefined ? undefined : { value, end: i };
}

const utf8OfLatin1 = (text: string): string => Buffer.from(text, 'latin1').toString('utf8');

/**
 * The text of `bytes` in `charset` (any case), for the charsets busboy decodes itself; undefined for any other.
 * (busboy means to hand the others to TextDecoder, but that path of its never works: every other charset fails.)
 */
export function decodeParam(bytes: Buffer, charset: string): string | undefined {
  switch (charset.toLowerCase()) {
    case 'utf-8':
    case 'utf8':
      return bytes.toString('utf8');
    case 'latin1':
    case 'ascii':
    case 'us-ascii':
    case 'iso-8859-1':
    case 'iso8859-1':
    case 'iso88591':
    case 'iso_8859-1':
    case 'iso_8859-1:1987':
    case 'windows-1252':
    case 'cp1252':
    case 'x-cp1252':
      // as busboy: the windows-1252 family is read as latin1
      return bytes.toString('latin1');
    case 'utf-16le':
    case 'utf16le':
    case 'ucs2':
    case 'ucs-2':
      return bytes.toString('utf16le');
    case 'base64':
      // as busboy: not a charset, but it takes it, and gives the bytes in base64
      return bytes.toString('base64');
    default:
      return undefined;
  }
}

/**
 * A field's text in its part's charset: those busboy decodes as busboy does, any other TextDecoder knows by it, and
 * UTF-8 (the form's default) for one it does not know. (busboy gives `undefined` for all those others.)
 */
export function decodeField(bytes: Buffer, charset: string): string {
  if (bytes.length === 0) return '';
  const text = decodeParam(bytes, charset);
  if (text !== undefined) return text;
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

/** The last segment of a path, `/` and `\` both separators; `.` and `..` become empty. */
export function basename(path: string): string {
  const last = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  return last === '.' || last === '..' ? '' : last;
}

/**
 * The boundary of a multipart/form-data Content-Type; undefined: another type, no boundary, or one with a byte beyond
 * ASCII (RFC 2046 boundaries are ASCII; busboy would look for its UTF-8 encoding, which no client sends).
 * An empty boundary (`boundary=""`) is taken, as busboy takes it.
 */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const parsed = parseContentType(contentType);
  if (!parsed || parsed.type !== 'multipart/form-data') return undefined;
  const boundary = parsed.params.get('boundary');
  return boundary !== undefined && BOUNDARY_TEXT.test(boundary) ? boundary : undefined;
}
