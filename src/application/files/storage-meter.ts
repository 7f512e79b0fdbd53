import { DomainError } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';
import { refusal } from '../usage/usage-limits.js';

/**
 * Chunks are held back until this many bytes are gathered, so a large upload costs one counter update and one write
 * per MiB instead of one per network chunk (typically 64 KiB).
 */
export const STORAGE_BATCH = 1024 * 1024;

/**
 * A batch that gets no new chunk for this long (at most twice this) goes on as it is: an upload that stalls must not
 * keep up to a MiB pinned in memory while it waits (the minimum rate the HTTP adapter enforces decides when it is
 * given up). A fast upload never waits this long between chunks, so its batches stay whole.
 */
export const STALL_FLUSH_MS = 250;

const QUIET = Symbol('quiet');

/**
 * Tells when an upload goes quiet: no chunk for between `ms` and twice that. One timer serves a whole batch, however
 * many chunks it gathers; a chunk only bumps a counter, so the hot path sets no timer per network chunk (16,384 of
 * them per GiB).
 */
class QuietWatch {
  private chunks = 0;
  private seen = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private quiet: Promise<typeof QUIET> | undefined;
  private wake: ((value: typeof QUIET) => void) | undefined;

  constructor(private readonly ms: number) {}

  /** A chunk arrived. */
  tick(): void {
    this.chunks++;
  }

  /** Resolves to QUIET once no chunk comes for a while; the same promise until `stop`. */
  armed(): Promise<typeof QUIET> {
    if (!this.quiet) {
      this.quiet = new Promise<typeof QUIET>((resolve) => (this.wake = resolve));
      this.seen = this.chunks;
      this.timer = setTimeout(() => this.check(), this.ms);
    }
    return this.quiet;
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.quiet = undefined;
    this.wake = undefined;
  }

  private check(): void {
    if (this.chunks !== this.seen) {
      this.seen = this.chunks;
      this.timer?.refresh();
    } else {
      this.wake?.(QUIET);
    }
  }
}

/**
 * Meters one upload as its bytes arrive: refuses it past the upload cap, and reserves exactly the bytes of each batch
 * before passing the batch on. Reservations never run ahead of the bytes, so concurrent uploads near the limit do
 * not crowd each other out, and the counter never lags behind what was written. What it reserved is given back
 * through the upload's hold, never here.
 */
export class StorageMeter {
  private reserved = 0;
  private received = 0;

  constructor(
    private readonly p: Pick<Ports, 'usage' | 'clock' | 'instance'>,
    private readonly userId: string,
    private readonly maxStorage: number,
    private readonly maxBytes: number,
    /** Every batch is reserved under this hold, which keeps it fresh while bytes keep arriving. */
    private readonly holdId: string,
    private readonly stallFlushMs = STALL_FLUSH_MS,
    /** Takes each batch of another bound too, before the owner's storage (a file request's room); throws to refuse. */
    private readonly alsoTake?: (amount: number) => Promise<void>,
  ) {}

  async *metered(content: AsyncIterable<Uint8Array>): AsyncGenerator<readonly Uint8Array[]> {
    const source = content[Symbol.asyncIterator]();
    let batch: Uint8Array[] = [];
    let batchBytes = 0;
    const quiet = new QuietWatch(this.stallFlushMs);
    const flush = async () => {
      quiet.stop();
      await this.reserve(batchBytes);
      const out = batch;
      batch = [];
      batchBytes = 0;
      return out;
    };
    let finished = false;
    try {
      for (;;) {
        const pending = source.next();
        let step = batchBytes > 0 ? await Promise.race([pending, quiet.armed()]) : await pending;
        if (step === QUIET) {
          yield await flush();
          step = await pending;
        }
        if (step.done) break;
        const chunk = step.value;
        quiet.tick();
        this.received += chunk.byteLength;
        if (this.received > this.maxBytes) {
          throw new DomainError('payload_too_large', `A file holds at most ${this.maxBytes} bytes`, {
            maxBytes: this.maxBytes,
          });
        }
        batch.push(chunk);
        batchBytes += chunk.byteLength;
        if (batchBytes >= STORAGE_BATCH) yield await flush();
      }
      finished = true;
      if (batchBytes > 0) yield await flush();
    } finally {
      quiet.stop();
      // Stopped early (a failure here or in the store): the source is told, as for-await would, without waiting on it.
      if (!finished) void source.return?.()?.catch(() => undefined);
    }
  }

  /** Checks the store wrote exactly what was metered. */
  settle(size: number): void {
    if (size !== this.received || size !== this.reserved) {
      throw new Error(`The blob store reports ${size} bytes where ${this.received} were metered`);
    }
  }

  private async reserve(amount: number): Promise<void> {
    const hold = { id: this.holdId, at: this.p.clock.now(), by: this.p.instance.id() };
    if (this.alsoTake) await this.alsoTake(amount);
    if (!(await this.p.usage.reserve(this.userId, 'storage', amount, this.maxStorage, hold))) {
      throw await refusal(this.p, this.userId, 'storage', this.maxStorage);
    }
    this.reserved += amount;
  }
}
