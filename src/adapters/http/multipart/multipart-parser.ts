import { parseHeaderBlock, type PartHeaders } from './part-headers.js';

/**
 * The byte level of a multipart body (RFC 2046 §5.1.1): finds the delimiters with Buffer#indexOf (native code), reads
 * each part's header block, and hands a part's body on as views (`subarray`) of the chunks written. Only the few
 * bytes at the end of a chunk that might begin a delimiter are held back, copied, until the next chunk tells.
 */
export interface MultipartEvents {
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

/** As Node's limit for a request's header: a part's header block (with its closing empty line) holds at most this. */
export const MAX_HEADER_BYTES = 16 * 1024;

const CR = 0x0d;
const LF = 0x0a;
const DASH = 0x2d;

/** Where the parser is: the states of a body, from its preamble to its epilogue. */
const PREAMBLE = 0;
/** Right after a delimiter: `--` (the end), or transport padding and CRLF (a part follows). */
const AFTER_DELIMITER = 1;
const HEADERS = 2;
const BODY = 3;
const DONE = 4;
const FAILED = 5;
type State = typeof PREAMBLE | typeof AFTER_DELIMITER | typeof HEADERS | typeof BODY | typeof DONE | typeof FAILED;

/** Progress after a delimiter. */
const AFTER_START = 0;
const AFTER_DASH = 1;
const AFTER_PADDING = 2;
const AFTER_CR = 3;

const EMPTY = Buffer.alloc(0);

export class MultipartParser {
  /** `CRLF--boundary`: the CRLF before it belongs to the delimiter, not to the part before. */
  private readonly delimiter: Buffer;
  private state: State = PREAMBLE;
  /**
   * The end of the data so far that may be the start of a delimiter, a copy (shorter than the delimiter). It begins as
   * CRLF, so that a body may open with `--boundary` right away.
   */
  private tail: Buffer = Buffer.from('\r\n');
  private after = AFTER_START;
  /** The header block read so far, and how far into `CRLF CRLF` (counting the delimiter line's own CRLF) it is. */
  private header: Buffer[] = [];
  private headerBytes = 0;
  private headerEnd = 2;

  constructor(
    boundary: string,
    private readonly events: MultipartEvents,
  ) {
    if (boundary.length === 0) throw new MultipartError('The boundary is empty');
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
    let at = 0;
    try {
      while (at < chunk.length) {
        switch (this.state) {
          case PREAMBLE:
          case BODY:
            at = this.search(chunk, at);
            break;
          case AFTER_DELIMITER:
            at = this.afterDelimiter(chunk, at);
            break;
          case HEADERS:
            at = this.headers(chunk, at);
            break;
          case DONE:
          case FAILED:
            return;
        }
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

  private fail(message: string): never {
    throw new MultipartError(message);
  }

  /** Preamble or body: hands on the data up to the next delimiter (if in this chunk) and returns where it ends. */
  private search(chunk: Buffer, at: number): number {
    const delimiter = this.delimiter;
    if (this.tail.length > 0) {
      // Does a delimiter begin in the held-back tail? Join it with as much of the chunk as such a delimiter could reach.
      const tail = this.tail;
      const reach = Math.min(chunk.length - at, delimiter.length - 1);
      const joined = Buffer.concat([tail, chunk.subarray(at, at + reach)]);
      const found = joined.indexOf(delimiter);
      if (found !== -1) {
        // found < tail.length: `joined` holds less than a delimiter's length of the chunk
        this.tail = EMPTY;
        this.data(tail.subarray(0, found));
        this.delimiterFound();
        return at + found + delimiter.length - tail.length;
      }
      if (reach < delimiter.length - 1) {
        // The whole (short) chunk is in `joined`, which may still end with the start of a delimiter.
        const keep = this.holdBack(joined, 0);
        this.tail = joined.subarray(keep);
        this.data(joined.subarray(0, keep));
        return chunk.length;
      }
      this.tail = EMPTY;
      this.data(tail);
    }
    const found = chunk.indexOf(delimiter, at);
    if (found !== -1) {
      this.data(chunk.subarray(at, found));
      this.delimiterFound();
      return found + delimiter.length;
    }
    const keep = this.holdBack(chunk, at);
    this.data(chunk.subarray(at, keep));
    if (keep < chunk.length) this.tail = Buffer.from(chunk.subarray(keep));
    return chunk.length;
  }

  /** Where in `bytes` (from `from` on) the longest end that could begin a delimiter starts; its length: none. */
  private holdBack(bytes: Buffer, from: number): number {
    const delimiter = this.delimiter;
    const start = Math.max(from, bytes.length - delimiter.length + 1);
    for (let cr = bytes.indexOf(CR, start); cr !== -1; cr = bytes.indexOf(CR, cr + 1)) {
      if (bytes.compare(delimiter, 0, bytes.length - cr, cr, bytes.length) === 0) return cr;
    }
    return bytes.length;
  }

  private data(bytes: Buffer): void {
    if (bytes.length > 0 && this.state === BODY) this.events.partData(bytes);
  }

  private delimiterFound(): void {
    if (this.state === BODY) this.events.partEnd();
    this.state = AFTER_DELIMITER;
    this.after = AFTER_START;
  }

  /** After `CRLF--boundary`: `--` closes the form; else optional spaces and tabs, then CRLF, start the next part. */
  private afterDelimiter(chunk: Buffer, at: number): number {
    while (at < chunk.length) {
      const byte = chunk[at++];
      switch (this.after) {
        case AFTER_START:
          if (byte === DASH) this.after = AFTER_DASH;
          else if (byte === CR) this.after = AFTER_CR;
          else if (byte === 0x20 || byte === 0x09) this.after = AFTER_PADDING;
          else this.fail('Malformed delimiter line');
          break;
        case AFTER_DASH:
          if (byte !== DASH) this.fail('Malformed delimiter line');
          this.state = DONE;
          this.events.formEnd();
          return chunk.length;
        case AFTER_PADDING:
          if (byte === CR) this.after = AFTER_CR;
          else if (byte !== 0x20 && byte !== 0x09) this.fail('Malformed delimiter line');
          break;
        case AFTER_CR:
          if (byte !== LF) this.fail('Malformed delimiter line');
          this.state = HEADERS;
          this.header = [];
          this.headerBytes = 0;
          this.headerEnd = 2;
          return at;
      }
    }
    return at;
  }

  /** Reads the header block up to its empty line (the delimiter line's CRLF counts as the start of `CRLF CRLF`). */
  private headers(chunk: Buffer, at: number): number {
    let end = this.headerEnd;
    let i = at;
    const limit = Math.min(chunk.length, at + MAX_HEADER_BYTES - this.headerBytes + 1);
    for (; i < limit && end < 4; i++) {
      const byte = chunk[i];
      if (end % 2 === 0) end = byte === CR ? end + 1 : 0;
      else if (byte === LF) end++;
      else end = byte === CR ? 1 : 0;
    }
    this.headerEnd = end;
    this.headerBytes += i - at;
    if (this.headerBytes > MAX_HEADER_BYTES) this.fail('Part header too large');
    this.header.push(chunk.subarray(at, i));
    if (end < 4) return i;
    // The block without its closing empty line (which, for a part without headers, is the delimiter line's CRLF).
    const block = Buffer.concat(this.header).subarray(0, Math.max(0, this.headerBytes - 2));
    this.header = [];
    const headers = parseHeaderBlock(block.toString('latin1'));
    if (!headers) this.fail('Malformed part header');
    this.state = BODY;
    this.events.partBegin(headers);
    return i;
  }
}
