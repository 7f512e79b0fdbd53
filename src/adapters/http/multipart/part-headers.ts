/**
 * The text side of multipart/form-data (RFC 7578, RFC 2046): a part's header block, Content-Type and
 * Content-Disposition values with their parameters (RFC 2045 quoted strings, RFC 5987/2231 extended values), and the
 * text decodings a form uses. Header bytes are read as latin1, one character per byte, so no byte is lost before a
 * value is decoded.
 */

/** The header fields of one part: lower-cased names, each with its values in the order they came. */
export type PartHeaders = Map<string, string[]>;

/** A header type or parameter value: a type, its parameters by lower-cased name (the first of a name wins). */
export interface HeaderValue {
  type: string;
  params: Map<string, string>;
}

/** A part's header block may hold this many lines at most, as Node allows a request. */
export const MAX_HEADER_LINES = 2000;

const isTokenChar = (code: number): boolean =>
  (code >= 0x61 && code <= 0x7a) || // a-z
  (code >= 0x41 && code <= 0x5a) || // A-Z
  (code >= 0x30 && code <= 0x39) || // 0-9
  '!#$%&\'*+-.^_`|~'.includes(String.fromCharCode(code));

/** RFC 5987 attr-char: what an extended value holds besides %XX escapes. */
const isAttrChar = (code: number): boolean =>
  (code >= 0x61 && code <= 0x7a) ||
  (code >= 0x41 && code <= 0x5a) ||
  (code >= 0x30 && code <= 0x39) ||
  '!#$&+-.^_`|~'.includes(String.fromCharCode(code));

/** RFC 5987 mime-charsetc: the characters of an extended value's charset. */
const isCharsetChar = (code: number): boolean =>
  (code >= 0x61 && code <= 0x7a) ||
  (code >= 0x41 && code <= 0x5a) ||
  (code >= 0x30 && code <= 0x39) ||
  '!#$%&+-^_`{}~'.includes(String.fromCharCode(code));

/** qdtext and quoted-pair's second character: anything but controls (tab aside), DEL, and the quote and backslash. */
const isQuotedChar = (code: number): boolean => code === 0x09 || (code >= 0x20 && code !== 0x7f && code <= 0xff);

/** A header field value's characters (field-vchar, obs-text, SP and HTAB): no control characters. */
const isValueChar = (code: number): boolean => code === 0x09 || (code >= 0x20 && code !== 0x7f && code <= 0xff);

const isSpace = (code: number): boolean => code === 0x20 || code === 0x09;

/**
 * Parses a header block, given as latin1 text without its closing empty line: `Name: value` lines, each ending in
 * CRLF, a line that starts with a space or tab continuing the one before. undefined: malformed.
 */
export function parseHeaderBlock(block: string): PartHeaders | undefined {
  const headers: PartHeaders = new Map();
  if (block === '') return headers;
  if (!block.endsWith('\r\n')) return undefined;
  const lines = block.slice(0, -2).split('\r\n');
  if (lines.length > MAX_HEADER_LINES) return undefined;
  let name: string | undefined;
  let value = '';
  const flush = () => {
    if (name === undefined) return;
    const values = headers.get(name);
    if (values) values.push(value);
    else headers.set(name, [value]);
  };
  for (const line of lines) {
    if (line.length > 0 && isSpace(line.charCodeAt(0))) {
      // obs-fold: the line goes on the previous one's value
      if (name === undefined) return undefined;
      if (!allValueChars(line)) return undefined;
      value += line;
      continue;
    }
    flush();
    let i = 0;
    while (i < line.length && isTokenChar(line.charCodeAt(i))) i++;
    if (i === 0 || line.charCodeAt(i) !== 0x3a /* : */) return undefined;
    name = line.slice(0, i).toLowerCase();
    i++;
    while (i < line.length && isSpace(line.charCodeAt(i))) i++;
    value = line.slice(i);
    if (!allValueChars(value)) return undefined;
  }
  flush();
  return headers;
}

function allValueChars(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isValueChar(text.charCodeAt(i))) return false;
  return true;
}

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

/** A quoted-string from its opening quote at `i`: the value without quotes and escapes, and where it ends. */
function readQuotedString(text: string, i: number): { value: string; end: number } | undefined {
  let value = '';
  for (i++; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) return { value, end: i + 1 };
    if (code === 0x5c /* \ */) {
      i++;
      if (i === text.length || !isQuotedChar(text.charCodeAt(i))) return undefined;
      value += text[i];
    } else if (isQuotedChar(code)) {
      value += text[i];
    } else {
      return undefined;
    }
  }
  return undefined; // no closing quote
}

/** An RFC 5987 ext-value from `i`: `charset'language'value`, the value percent-encoded in that charset. */
function readExtendedValue(text: string, i: number): { value: string; end: number } | undefined {
  const charsetStart = i;
  while (i < text.length && isCharsetChar(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) !== 0x27 /* ' */) return undefined;
  const charset = text.slice(charsetStart, i);
  const languageEnd = text.indexOf("'", i + 1);
  if (languageEnd === -1) return undefined;
  i = languageEnd + 1;
  const bytes: number[] = [];
  const start = i;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 0x25 /* % */) {
      const byte = /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3)) ? parseInt(text.slice(i + 1, i + 3), 16) : NaN;
      if (Number.isNaN(byte)) return undefined;
      bytes.push(byte);
      i += 3;
    } else if (isAttrChar(code)) {
      bytes.push(code);
      i++;
    } else {
      break;
    }
  }
  // As busboy: an empty value is malformed.
  if (i === start) return undefined;
  const value = decodeText(Buffer.from(bytes), charset);
  return value === undefined ? undefined : { value, end: i };
}

const utf8OfLatin1 = (text: string): string => Buffer.from(text, 'latin1').toString('utf8');

/** The text of `bytes` in `charset` (any case); undefined: a charset Node does not know. */
export function decodeText(bytes: Buffer, charset: string): string | undefined {
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
    default:
      try {
        return new TextDecoder(charset).decode(bytes);
      } catch {
        return undefined;
      }
  }
}

/** The last segment of a path, `/` and `\` both separators; `.` and `..` become empty. */
export function basename(path: string): string {
  const last = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  return last === '.' || last === '..' ? '' : last;
}

/** The boundary of a multipart/form-data Content-Type; undefined: another type, or no (or an empty) boundary. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const parsed = parseContentType(contentType);
  if (!parsed || parsed.type !== 'multipart/form-data') return undefined;
  const boundary = parsed.params.get('boundary');
  return boundary ? boundary : undefined;
}
