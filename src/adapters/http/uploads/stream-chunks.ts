import { finished, type Readable } from 'node:stream';

/** Bytes read ahead of the consumer before the stream is paused (four 64 KiB network chunks). */
const READ_AHEAD = 256 * 1024;

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

type Waiter = { resolve: (step: IteratorResult<Uint8Array>) => void; reject: (err: Error) => void };

/**
 * A byte stream's chunks as an async iterator, for the upload paths, where each GiB is 16,384 network chunks.
 * Node's own iterator (`for await (… of stream)`) reads in paused mode: every chunk waits for a 'readable' event on
 * the next tick and goes through an async generator. This one lets the stream flow and hands each chunk straight to
 * the consumer waiting for it, or queues it; it pauses the stream once READ_AHEAD bytes wait, and resumes it when the
 * consumer has taken them, so backpressure reaches the socket as before.
 *
 * Ends like Node's iterator: the stream's error, or a premature close, rejects; `return()` (a consumer that stops
 * early) destroys the stream, or with `destroyOnReturn: false` leaves it to whoever drains it.
 */
export function streamChunks(
  stream: Readable,
  options: { destroyOnReturn?: boolean } = {},
): AsyncIterableIterator<Uint8Array> & { return(): Promise<IteratorResult<Uint8Array>> } {
  return new StreamChunks(stream, options.destroyOnReturn ?? true);
}

class StreamChunks implements AsyncIterableIterator<Uint8Array> {
  private queue: Uint8Array[] = [];
  private head = 0;
  private queued = 0;
  private ended = false;
  private failure: Error | null = null;
  private waiter: Waiter | null = null;
  private stopped = false;
  private readonly cleanup: () => void;

  constructor(
    private readonly stream: Readable,
    private readonly destroyOnReturn: boolean,
  ) {
    this.cleanup = finished(stream, { writable: false }, (err) => this.onFinished(err ?? null));
    stream.on('data', this.onData);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Uint8Array>> {
    if (this.head < this.queue.length) return Promise.resolve({ done: false, value: this.take() });
    if (this.failure) return Promise.reject(this.failure);
    if (this.ended || this.stopped) return Promise.resolve(DONE);
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  return(): Promise<IteratorResult<Uint8Array>> {
    if (!this.stopped) {
      this.stopped = true;
      this.stream.off('data', this.onData);
      this.cleanup();
      this.queue = [];
      this.head = 0;
      this.queued = 0;
      if (this.destroyOnReturn) this.stream.destroy();
    }
    return Promise.resolve(DONE);
  }

  private readonly onData = (chunk: Uint8Array): void => {
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = null;
      waiter.resolve({ done: false, value: chunk });
      return;
    }
    this.queue.push(chunk);
    this.queued += chunk.byteLength;
    if (this.queued >= READ_AHEAD) this.stream.pause();
  };

  private take(): Uint8Array {
    const chunk = this.queue[this.head]!;
    this.head++;
    this.queued -= chunk.byteLength;
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
      if (!this.ended && !this.failure && this.stream.isPaused()) this.stream.resume();
    }
    return chunk;
  }

  private onFinished(err: Error | null): void {
    this.stream.off('data', this.onData);
    if (err) this.failure = err;
    else this.ended = true;
    const waiter = this.waiter;
    if (!waiter) return;
    this.waiter = null;
    // Queued chunks are never left behind: a waiter only exists while the queue is empty.
    if (err) waiter.reject(err);
    else waiter.resolve(DONE);
  }
}
