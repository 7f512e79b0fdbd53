import { piecesOf, type BlobPiece } from '../../application/ports/blob-store.js';
import type { FileHandle } from 'node:fs/promises';

/** Bytes written to one file between two head starts of its flush. */
export const WRITE_BACK_BYTES = 32 * 1024 * 1024;

/**
 * Flushes started ahead of need run one at a time in this process: each holds a thread of libuv's pool while the disk
 * works, so the reads and writes that share the pool keep the rest. Others wait their turn in order, up to
 * MAX_WAITING (each keeps its file open until then); past that a head start is skipped.
 */
const MAX_RUNNING = 1;
const MAX_WAITING = 64;
let running = 0;
const waiting: Array<() => void> = [];

/** A head start: `done` settles once the flush ran or was called off (it never rejects). */
export interface HeadStart {
  done: Promise<void>;
  /** Calls it off if it has not begun (the caller flushes now itself); true when it had not. */
  callOff(): boolean;
}

/**
 * Starts writing the file's bytes so far back to the disk soon, without anyone waiting for it: a head start only, so
 * the flush that makes the blob durable finds little left to do (the kernel itself would wait up to 30 s, and a
 * large upload would pay for all of it at its end). Null when too many wait already. A failure here is met again by
 * the flush that counts.
 */
export function writeBackAhead(handle: FileHandle): HeadStart | null {
  if (running >= MAX_RUNNING && waiting.length >= MAX_WAITING) return null;
  let begun = false;
  let calledOff = false;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const begin = () => {
    if (calledOff) return next();
    begun = true;
    running++;
    void handle
      .datasync()
      .catch(() => undefined)
      .finally(() => {
        running--;
        finish();
        next();
      });
  };
  if (running < MAX_RUNNING) begin();
  else waiting.push(begin);
  return {
    done,
    callOff: () => {
      if (begun || calledOff) return false;
      calledOff = true;
      finish();
      return true;
    },
  };
}

/**
 * One file's head starts, at most one under way or waiting at a time: one every WRITE_BACK_BYTES written, and one on
 * request. The file must stay open until `settled()`.
 */
export class FileWriteBack {
  private ahead: HeadStart | null = null;
  private sinceLast = 0;

  constructor(private readonly handle: FileHandle) {}

  /** Counts bytes written, and starts a head start once WRITE_BACK_BYTES have been since the last one. */
  wrote(bytes: number): void {
    this.sinceLast += bytes;
    if (this.sinceLast >= WRITE_BACK_BYTES && this.ahead === null) {
      this.start();
      this.sinceLast = 0;
    }
  }

  /** Starts a head start now, unless one is under way or waiting already. */
  start(): void {
    if (this.ahead !== null) return;
    const started = writeBackAhead(this.handle);
    if (started === null) return;
    this.ahead = started;
    void started.done.then(() => {
      if (this.ahead === started) this.ahead = null;
    });
  }

  /** Settles once no head start runs or waits: one still waiting is called off (the caller flushes or closes now). */
  async callOff(): Promise<void> {
    this.ahead?.callOff();
    await this.settled();
  }

  /** Settles once the head start under way or waiting, if any, is done. */
  settled(): Promise<void> {
    return this.ahead?.done ?? Promise.resolve();
  }
}

/** The next waiting head start, if the pool has room. */
function next(): void {
  if (running < MAX_RUNNING) waiting.shift()?.();
}

/**
 * Writes all of `piece` after what the handle wrote so far, a batch's arrays in one `writev` (a call may take fewer
 * bytes than it was given; the rest goes again). Resolves with the bytes written.
 */
export async function writeAll(handle: FileHandle, piece: BlobPiece): Promise<number> {
  let left = piecesOf(piece).filter((chunk) => chunk.byteLength > 0);
  let total = 0;
  while (left.length > 0) {
    const { bytesWritten } = await handle.writev(left);
    total += bytesWritten;
    left = rest(left, bytesWritten);
  }
  return total;
}

/** What `writev` left of `chunks` after writing `written` bytes. */
function rest(chunks: readonly Uint8Array[], written: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let skip = written;
  for (const chunk of chunks) {
    if (skip >= chunk.byteLength) {
      skip -= chunk.byteLength;
      continue;
    }
    out.push(skip > 0 ? chunk.subarray(skip) : chunk);
    skip = 0;
  }
  return out;
}
