import { piecesOf, type BlobPiece } from '../../application/ports/blob-store.js';
import type { FileHandle } from 'node:fs/promises';

/** Bytes written to one file between two head starts of its flush. */
export const WRITE_BACK_BYTES = 32 * 1024 * 1024;

/**
 * Flushes started ahead of need that may run at once in this process. Each holds a thread of libuv's pool while the
 * disk works, so they are capped and never crowd out the reads and writes that share the pool.
 */
const MAX_AHEAD = 1;
let running = 0;

/**
 * Starts writing the file's bytes so far back to the disk now, without anyone waiting for it: a head start only, so
 * the flush that makes the blob durable finds little left to do (the kernel itself would wait up to 30 s, and a
 * large upload would pay for all of it at its end). Skipped (null) while another head start runs. Never rejects: a
 * failure here is met again by the flush that counts.
 */
export function writeBackAhead(handle: FileHandle): Promise<void> | null {
  if (running >= MAX_AHEAD) return null;
  running++;
  return handle
    .datasync()
    .catch(() => undefined)
    .finally(() => {
      running--;
    });
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
