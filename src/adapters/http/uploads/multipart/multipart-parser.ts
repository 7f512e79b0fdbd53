import type { PartHeaders } from './part-headers.js';
import { BOUNDARY_TEXT, TOKEN } from './tokens.js';

/**
 * The byte level of a multipart body (RFC 2046 §5.1.1), read as busboy 1.6 reads it: the body (after an implied CRLF,
 * so that it may open with `--boundary`) is cut at every `CRLF--boundary`, wherever it comes, header blocks included.
 * After a delimiter, `--` closes the form, CRLF opens a part (its header block, then its body), and anything else
 * makes the bytes up to the next delimiter count for nothing, as the preamble does. The delimiters are found with
 * Buffer#indexOf (native code) and a part's body is handed on as views (`subarray`) of the chunks written: only the
 * few bytes at the end of a chunk that might begin a delimiter are held back until the next chunk tells.
 */
export interface MultipartEvents {
  /**
   * A delimiter, any of them (the first, the closing one), right after the part before it ended. Returns whether to
   * read the part that may follow; false skips it, header block and all, up to the next delimiter.
   */
  delimiter(): boolean;
  /** A part begins: its header block has been read. */
  partBegin(headers: PartHeaders): void;
  /** Bytes of the current part's body, never empty; views of the written chunks, to be read, not changed. */
  partData(data: Buffer): void;
  /** The current part ended at a delimiter. */
  partEnd(): void;
  /** The closing delimiter: the form is complete and the rest (the epilogue) is ignored. */
  formEnd(): void;
}

export class MultipartError extends Error {
  override readonly name = 'MultipartError';
}

/**
 * A part's header block may take this many bytes, as a request's head in Node, and as busboy counts them: it counts
 * the first byte of every line but the first, and the first byte of every value, twice.
 */
export const MAX_HEADER_BYTES = 16 * 1024;
/** A header block's fields beyond the first MAX_HEADER_PAIRS - 1 are read but dropped, as busboy (and Node) do. */
export const MAX_HEADER_PAIRS = 2000;

const CR = 0x0d;
const LF = 0x0a;
const DASH = 0x2d;
const SP = 0x20;
const HT = 0x09;
const COLON = 0x3a;

/** Where the parser is in the body. */
const PREAMBLE = 0;
/** Right after a delimiter: `--` (the end), or CRLF (a part follows), or else the bytes count for nothing. */
const AFTER_DELIMITER = 1;
const HEADERS = 2;
const BODY = 3;
/** Up to the next delimiter, the bytes count for nothing: a part skipped, or a delimiter line with other bytes. */
const SKIP = 4;
const DONE = 5;
const FAILED = 6;
type State =
  | typeof PREAMBLE
  | typeof AFTER_DELIMITER
  | typeof HEADERS
  | typeof BODY
  | typeof SKIP
  | typeof DONE
  | typeof FAILED;

/** Progress after a delimiter. */
const AFTER_START = 0;
const AFTER_DASH = 1;
const AFTER_CR = 2;

export class MultipartParser {
  /** `CRLF--boundary`: the CRLF before it belongs to the delimiter, not to the part before. Its one CR comes first. */
  private readonly delimiter: Buffer;
  private state: State = PREAMBLE;
  /**
   * How many bytes of a delimiter the data so far end with: they are held back (they are `delimiter[0, matched)`)
   * until the next bytes tell whether the delimiter goes on. It begins at 2, an implied CRLF, so that a body may
   * open with `--boundary` right away.
   */
  private matched = 2;
  private after = AFTER_START;
  /** Whether to read the part after the last delimiter (MultipartEvents#delimiter). */
  private readNext = true;
  private header: HeaderBlockReader | null = null;

  constructor(
    boundary: string,
    private readonly events: MultipartEvents,
  ) {
    // The search below relies on the delimiter holding no CR but its first byte; a header value cannot hold one, and
    // RFC 2046 boundaries are ASCII.
    if (!BOUNDARY_TEXT.test(boundary)) throw new MultipartError('The boundary holds bytes it may not hold');
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  }

  /** True once the closing delimiter has been read. */
  get complete(): boolean {
    return this.state === DONE;
  }

  /**
   * Parses one chunk, calling the events as it goes. The chunk must not change afterwards: part data are views of it.
   * Throws a MultipartError on a malformed body, and ignores all writes after that (or after the closing delimiter).
   */
  write(chunk: Buffer): void {
    const delimiter = this.delimiter;
    let at = 0;
    try {
      while (at < chunk.length && this.state !== DONE && this.state !== FAILED) {
        if (this.matched > 0) {
          // Does the delimiter begun at the end of the earlier data go on in this chunk?
          const matched = this.matched;
          const length = Math.min(delimiter.length - matched, chunk.length - at);
          if (chunk.compare(delimiter, matched, matched + length, at, at + length) === 0) {
            at += length;
            if (matched + length < delimiter.length) {
              this.matched = matched + length;
              return;
            }
            this.matched = 0;
            this.delimiterFound();
            continue;
          }
          // It does not: what was held back is data. No delimiter begins within it, as its only CR is its first byte.
          this.matched = 0;
          this.data(Buffer.from(delimiter.subarray(0, matched)));
          continue;
        }
        const found = chunk.indexOf(delimiter, at);
        if (found !== -1) {
          if (found > at) this.data(chunk.subarray(at, found));
          at = found + delimiter.length;
          this.delimiterFound();
          continue;
        }
        const held = this.heldBack(chunk, at);
        if (held > at) this.data(chunk.subarray(at, held));
        this.matched = chunk.length - held;
        return;
      }
    } catch (err) {
      this.state = FAILED;
      throw err;
    }
  }

  /** The body has ended: throws a MultipartError unless the closing delimiter came. */
  end(): void {
    if (this.state === DONE) return;
    const state = this.state;
    this.state = FAILED;
    throw new MultipartError(state === HEADERS ? 'Malformed part header' : 'Unexpected end of form');
  }

  /**
   * Where the end of `chunk` (from `from` on, holding no whole delimiter) that may begin a delimiter starts; the
   * chunk's length: none. Only its last CR can begin one, since a delimiter holds no other CR.
   */
  private heldBack(chunk: Buffer, from: number): number {
    let cr = chunk.indexOf(CR, Math.max(from, chunk.length - this.delimiter.length + 1));
    if (cr === -1) return chunk.length;
    for (let next = chunk.indexOf(CR, cr + 1); next !== -1; next = chunk.indexOf(CR, next + 1)) cr = next;
    return chunk.compare(this.delimiter, 0, chunk.length - cr, cr) === 0 ? cr : chunk.length;
  }

  private delimiterFound(): void {
    switch (this.state) {
      case DONE:
        // a delimiter in the epilogue: the form has ended
        return;
      case BODY:
        this.events.partEnd();
        break;
      case HEADERS:
        // busboy reads the header block on across the delimiter, into the next part's: a part's headers would then
        // be joined with the next one's, or its name given to the next one's body.
        this.fail('A delimiter within a part header');
        break;
      default:
      // the preamble, a part skipped, or a delimiter line cut short by this delimiter: nothing to end
    }
    this.readNext = this.events.delimiter();
    this.state = AFTER_DELIMITER;
    this.after = AFTER_START;
  }

  /** Bytes between delimiters (never a delimiter's own), taken by what the parser is reading. */
  private data(bytes: Buffer): void {
    let at = 0;
    while (at < bytes.length) {
      switch (this.state) {
        case BODY:
          this.events.partData(at === 0 ? bytes : bytes.subarray(at));
          return;
        case AFTER_DELIMITER:
          at = this.afterDelimiter(bytes, at);
          break;
        case HEADERS:
          at = this.headers(bytes, at);
          break;
        default:
          // PREAMBLE, SKIP, DONE (the epilogue)
          return;
      }
    }
  }

  /** After `CRLF--boundary`: `--` closes the form, CRLF begins a part; any other byte skips to the next delimiter. */
  private afterDelimiter(bytes: Buffer, at: number): number {
    const byte = bytes[at];
    switch (this.after) {
      case AFTER_START:
        if (byte === DASH) this.after = AFTER_DASH;
        else if (byte === CR) this.after = AFTER_CR;
        else this.state = SKIP;
        break;
      case AFTER_DASH:
        if (byte === DASH) {
          this.state = DONE;
          this.events.formEnd();
        } else {
          this.state = SKIP;
        }
        break;
      case AFTER_CR:
        if (byte !== LF) {
          this.state = SKIP;
        } else if (this.readNext) {
          this.state = HEADERS;
          this.header = new HeaderBlockReader();
        } else {
          this.state = SKIP;
        }
        break;
    }
    return at + 1;
  }

  private headers(bytes: Buffer, at: number): number {
    const header = this.header!;
    const end = header.read(bytes, at);
    if (end === -1) return bytes.length;
    this.header = null;
    this.state = BODY;
    this.events.partBegin(header.headers);
    return end;
  }

  private fail(message: string): never {
    throw new MultipartError(message);
  }
}

/** Where a header block reader is: in a field's name, the spaces after its colon, its value, or between lines. */
const NAME = 0;
const OWS = 1;
const VALUE = 2;
/** A CR in a value: LF must follow. */
const VALUE_CR = 3;
/** After a line's CRLF: a space or tab folds the line on, CR ends the block, anything else begins a field name. */
const LINE_END = 4;
/** After the empty line's CR: LF must follow. */
const END_CR = 5;

/** A field value's bytes (field-vchar, obs-text, SP and HTAB): no control characters. */
const isValueByte = (byte: number): boolean => byte === HT || (byte >= SP && byte !== 0x7f);

/**
 * One part's header block, read as it comes, to busboy 1.6's rules: `Name: value` lines ending in CRLF (a line
 * beginning with a space or tab folds the one before on), then an empty line. Bytes are taken as latin1, so none is
 * lost before a value is decoded. Only the first MAX_HEADER_PAIRS - 1 fields are kept; the size is bounded by
 * MAX_HEADER_BYTES as busboy counts it.
 */
class HeaderBlockReader {
  readonly headers: PartHeaders = new Map();
  private state = NAME;
  private count = 0;
  private pairs = 0;
  private name = '';
  private value = '';

  /** Reads on from `at`: where the block ended (past its empty line), or -1 when it goes on after `bytes`. */
  read(bytes: Buffer, at: number): number {
    let i = at;
    // where the name or value being read began in `bytes`
    let start = at;
    while (i < bytes.length) {
      if (this.count === MAX_HEADER_BYTES) throw new MultipartError('Part header too large');
      this.count++;
      const byte = bytes[i]!;
      switch (this.state) {
        case NAME:
          if (TOKEN[byte] === 1) {
            i++;
            break;
          }
          this.name += bytes.toString('latin1', start, i);
          if (byte !== COLON || this.name === '') throw new MultipartError('Malformed part header');
          i++;
          this.state = OWS;
          break;
        case OWS:
          if (byte === SP || byte === HT) {
            i++;
          } else {
            // the value begins with this byte, which busboy then counts again
            this.state = VALUE;
            start = i;
          }
          break;
        case VALUE:
          if (isValueByte(byte)) {
            i++;
            break;
          }
          if (byte !== CR) throw new MultipartError('Malformed part header');
          this.value += bytes.toString('latin1', start, i);
          i++;
          this.state = VALUE_CR;
          break;
        case VALUE_CR:
          if (byte !== LF) throw new MultipartError('Malformed part header');
          i++;
          this.state = LINE_END;
          break;
        case LINE_END:
          if (byte === SP || byte === HT) {
            // obs-fold: the line goes on the value, its space or tab included (this byte counted again)
            this.state = VALUE;
            start = i;
            break;
          }
          this.addField();
          if (byte === CR) {
            i++;
            this.state = END_CR;
          } else {
            // the next field's name begins with this byte (counted again)
            this.state = NAME;
            this.name = '';
            this.value = '';
            start = i;
          }
          break;
        case END_CR:
          if (byte !== LF) throw new MultipartError('Malformed part header');
          return i + 1;
      }
    }
    if (this.state === NAME) this.name += bytes.toString('latin1', start, i);
    else if (this.state === VALUE) this.value += bytes.toString('latin1', start, i);
    return -1;
  }

  private addField(): void {
    if (++this.pairs >= MAX_HEADER_PAIRS) return;
    const name = this.name.toLowerCase();
    const values = this.headers.get(name);
    if (values) values.push(this.value);
    else this.headers.set(name, [this.value]);
  }
}
