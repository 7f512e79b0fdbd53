import { DomainError } from '../../domain/index.js';

/**
 * At most `maxActive` pieces of work at once; up to `maxWaiting` more wait their turn in arrival order, and any beyond
 * that are refused at once with rate_limited, so a storm costs neither unbounded memory nor unbounded waiting.
 */
export class WorkLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly maxActive: number,
    readonly maxWaiting: number,
  ) {
    if (!(Number.isSafeInteger(maxActive) && maxActive >= 1)) throw new Error('maxActive must be an integer ≥ 1');
    if (!(Number.isSafeInteger(maxWaiting) && maxWaiting >= 0)) throw new Error('maxWaiting must be an integer ≥ 0');
  }

  /** Work running now. */
  get active(): number {
    return this.running;
  }

  /** Work waiting for a turn. */
  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.maxActive) {
      this.running += 1;
    } else if (this.waiting.length < this.maxWaiting) {
      // The finishing work hands its turn over directly, so `running` never drops and rises in between.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      throw new DomainError('rate_limited', 'The server is busy; try again shortly', { retryAfter: 1 });
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
