import { Readable, Writable } from 'node:stream';
import { MultipartParser, type MultipartEvents } from './multipart-parser.js';
import { basename, decodeField, parseContentType, parseDisposition, type PartHeaders } from './part-headers.js';

/**
 * What a form may hold, reckoned as busboy 1.6 does: at most `files` files and `fields` fields; fewer than `parts`
 * parts, and fields and files shorter than `fieldSize` and `fileSize` bytes (reaching one of those is over it).
 */
export interface FormLimits {
  files: number;
  fields: number;
  /**
   * Counted at each part's closing delimiter (whatever the part was, skipped ones too): the count reaching this is
   * reported, and the parts after it are skipped unread.
   */
  parts: number;
  /** A field reaching this size is cut here and reported truncated. */
  fieldSize: number;
  /** A file reaching this size is cut here, and 'limit' emitted on its stream. */
  fileSize: number;
}

export interface FilePartInfo {
  /** The file name's last path segment; undefined for a part that is a file by its type alone. */
  filename: string | undefined;
  /** The part's `type/subtype`, lower case; text/plain when it has none (RFC 7578 §4.4). */
  mime: string;
}

export interface FormHandlers {
  /** A field part, complete. `name` is undefined when the part has none. */
  field(name: string | undefined, value: string, truncated: boolean): void;
  /**
   * A file part begins; its bytes follow on `stream`, which ends at the part's end. A stream nobody reads holds
   * the request back: resume() it to skip the file. When the file reaches `limits.fileSize`, the stream emits
   * 'limit' and the rest of the file is dropped.
   */
  file(name: string | undefined, stream: Readable, info: FilePartInfo): void;
  /**
   * The form holds more files or fields than their limits, or as many parts as theirs; the parts beyond it are
   * skipped. Reported once a kind.
   */
  limit(kind: 'files' | 'fields' | 'parts'): void;
}

type Part =
  | { kind: 'skip' }
  | { kind: 'field'; name: string | undefined; charset: string; pieces: Buffer[]; size: number; truncated: boolean }
  | { kind: 'file'; stream: FilePartStream; size: number; full: boolean };

const SKIP: Part = { kind: 'skip' };

/** A file part's bytes; reading it lets the form go on when it waits for the reader. */
class FilePartStream extends Readable {
  constructor(private readonly onRead: () => void) {
    super();
  }

  override _read(): void {
    this.onRead();
  }

  /** A file destroyed by its reader holds the form back no longer; the rest of its bytes are dropped. */
  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.onRead();
    callback(error);
  }
}

/**
 * A multipart/form-data body written into it (`req.pipe(form)`), read as fields and file streams (RFC 7578).
 * Backpressure: while the current file's stream is above its highWaterMark, the write that filled it is not
 * acknowledged, so a pipe stops reading the request until the file's reader catches up.
 * 'finish' once the whole form has been read; 'error' for a malformed form (including one that ends early).
 */
export class FormDataReader extends Writable {
  private readonly parser: MultipartParser;
  private part: Part = SKIP;
  /** Delimiters so far: the parts ended, and one. */
  private delimiters = 0;
  private fields = 0;
  private files = 0;
  private readonly reported = new Set<string>();
  /** The acknowledgement of the last write, held while the file's stream is full. */
  private pendingWrite: (() => void) | null = null;
  private fileFull = false;

  constructor(
    boundary: string,
    private readonly limits: FormLimits,
    private readonly handlers: FormHandlers,
  ) {
    super();
    const events: MultipartEvents = {
      delimiter: () => this.delimiter(),
      partBegin: (headers) => this.partBegin(headers),
      partData: (data) => this.partData(data),
      partEnd: () => this.partEnd(),
      formEnd: () => {},
    };
    this.parser = new MultipartParser(boundary, events);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    try {
      this.parser.write(chunk);
    } catch (err) {
      callback(err as Error);
      return;
    }
    if (this.fileFull) this.pendingWrite = () => callback();
    else callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    try {
      this.parser.end();
      callback();
    } catch (err) {
      callback(err as Error);
    }
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const part = this.part;
    this.part = SKIP;
    this.pendingWrite = null;
    if (part.kind === 'file') part.stream.destroy(error ?? new Error('The form ended before the file'));
    callback(error);
  }

  /** The file's reader wants more: acknowledge the write that was held. */
  private fileRead(stream: FilePartStream): void {
    if (this.part.kind !== 'file' || this.part.stream !== stream) return;
    this.fileFull = false;
    const pending = this.pendingWrite;
    this.pendingWrite = null;
    pending?.();
  }

  private report(kind: 'files' | 'fields' | 'parts'): void {
    if (this.reported.has(kind)) return;
    this.reported.add(kind);
    this.handlers.limit(kind);
  }

  /** A delimiter: the part before it has ended. Whether to read the next part: not once the parts limit is reached. */
  private delimiter(): boolean {
    const parts = this.delimiters++;
    if (parts === this.limits.parts) this.report('parts');
    return parts < this.limits.parts;
  }

  private partBegin(headers: PartHeaders): void {
    this.part = SKIP;
    // A part that is not form-data (no or another Content-Disposition) is skipped, as busboy does.
    const disposition = headers.get('content-disposition')?.[0];
    const parsed = disposition === undefined ? undefined : parseDisposition(disposition);
    if (!parsed || parsed.type !== 'form-data') return;
    // As busboy: an empty name is none, and an empty filename* or filename is none (then the other, if any, counts).
    const name = parsed.params.get('name') || undefined;
    const rawFilename = parsed.params.get('filename*') || parsed.params.get('filename') || undefined;
    const filename = rawFilename === undefined ? undefined : basename(rawFilename);
    const contentType = headers.get('content-type')?.[0];
    const type = contentType === undefined ? undefined : parseContentType(contentType);
    const mime = type?.type ?? 'text/plain';

    if (filename !== undefined || mime === 'application/octet-stream') {
      if (this.files >= this.limits.files) return this.report('files');
      this.files++;
      const stream: FilePartStream = new FilePartStream(() => this.fileRead(stream));
      this.part = { kind: 'file', stream, size: 0, full: false };
      this.handlers.file(name, stream, { filename, mime });
    } else {
      if (this.fields >= this.limits.fields) return this.report('fields');
      this.fields++;
      const charset = type?.params.get('charset') ?? 'utf-8';
      this.part = { kind: 'field', name, charset, pieces: [], size: 0, truncated: false };
    }
  }

  private partData(data: Buffer): void {
    const part = this.part;
    if (part.kind === 'file') {
      if (part.full) return;
      const room = this.limits.fileSize - part.size;
      const piece = data.length <= room ? data : data.subarray(0, room);
      part.size += piece.length;
      if (part.size >= this.limits.fileSize) {
        part.full = true;
        if (piece.length > 0) part.stream.push(piece);
        part.stream.emit('limit');
      } else if (!part.stream.push(piece) && !part.stream.destroyed) {
        this.fileFull = true;
      }
    } else if (part.kind === 'field') {
      if (part.truncated) return;
      const room = this.limits.fieldSize - part.size;
      if (data.length >= room) {
        part.truncated = true;
        if (room > 0) part.pieces.push(data.subarray(0, room));
        part.size += room;
      } else {
        part.pieces.push(data);
        part.size += data.length;
      }
    }
  }

  private partEnd(): void {
    const part = this.part;
    this.part = SKIP;
    if (part.kind === 'file') {
      // The ended file no longer holds the form back (this runs within a write, which then goes on at once).
      this.fileFull = false;
      part.stream.push(null);
    } else if (part.kind === 'field') {
      this.handlers.field(part.name, decodeField(Buffer.concat(part.pieces, part.size), part.charset), part.truncated);
    }
  }
}
