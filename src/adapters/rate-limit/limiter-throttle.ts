import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { GuessCounters, Tally, Throttle, ThrottleKey, ThrottleRule } from '../../application/ports/throttle.js';

/**
 * The Throttle port on rate-limiter-flexible: one limiter per rule (points = the rule's limit, duration = its window,
 * a fixed window that opens at a key's first count), whatever store the subclass gives it.
 */
export abstract class LimiterThrottle implements Throttle {
  private readonly limiters = new Map<string, { rule: ThrottleRule; limiter: RateLimiterAbstract }>();

  protected abstract create(rule: ThrottleRule): RateLimiterAbstract;

  /** Resolves once the store is ready for use (indexes in place); the memory store always is. */
  protected ready(): Promise<void> {
    return Promise.resolve();
  }

  async lockedFor(keys: readonly ThrottleKey[]): Promise<number> {
    await this.ready();
    const waits = await Promise.all(
      keys.map(async ({ rule, id }) => {
        const res = await this.limiter(rule).get(id);
        return res !== null && res.consumedPoints >= rule.limit ? waitOf(res, rule) : 0;
      }),
    );
    return Math.max(0, ...waits);
  }

  async count(keys: readonly ThrottleKey[]): Promise<number> {
    const waits = await Promise.all(
      keys.map(async (key) => {
        const { count, resetIn } = await this.tally(key);
        return count > key.rule.limit ? resetIn : 0;
      }),
    );
    return Math.max(0, ...waits);
  }

  async tally({ rule, id }: ThrottleKey): Promise<Tally> {
    await this.ready();
    const res = await this.limiter(rule).penalty(id, 1);
    return { count: res.consumedPoints, resetIn: waitOf(res, rule) };
  }

  async uncount(keys: readonly ThrottleKey[]): Promise<void> {
    await this.ready();
    await Promise.all(keys.map((key) => this.giveBack(key)));
  }

  async forgive({ rule, id }: ThrottleKey): Promise<void> {
    await this.ready();
    await this.limiter(rule).delete(id);
  }

  async tallyGuess({ target, pair }: GuessCounters): Promise<{ target: Tally; pair: Tally }> {
    const [counted, paired] = await Promise.all([this.tally(target), this.tally(pair)]);
    return { target: counted, pair: paired };
  }

  async uncountGuess({ target, pair }: GuessCounters): Promise<void> {
    await this.uncount([pair, target]);
  }

  async forgiveGuess({ target, pair }: GuessCounters): Promise<void> {
    await Promise.all([this.forgive(pair), this.uncount([target])]);
  }

  private async giveBack({ rule, id }: ThrottleKey): Promise<void> {
    const limiter = this.limiter(rule);
    const res = await limiter.reward(id, 1);
    // Give-backs racing a window's end can overshoot; a negative count would hand out extra attempts.
    if (res.consumedPoints < 0) await limiter.penalty(id, -res.consumedPoints);
  }

  private limiter(rule: ThrottleRule): RateLimiterAbstract {
    const known = this.limiters.get(rule.name);
    if (known) {
      if (known.rule.limit !== rule.limit || known.rule.windowMs !== rule.windowMs) {
        throw new Error(`Throttle rule ${rule.name} is defined twice with different figures`);
      }
      return known.limiter;
    }
    const limiter = this.create(rule);
    this.limiters.set(rule.name, { rule, limiter });
    return limiter;
  }
}

/** The rest of the key's window; a window that never ends (it should not happen) waits a whole window. */
function waitOf(res: RateLimiterRes, rule: ThrottleRule): number {
  return res.msBeforeNext >= 0 ? Math.max(1, res.msBeforeNext) : rule.windowMs;
}

/** The limiter options every store shares. Windows are whole seconds in rate-limiter-flexible. */
export function limiterOptions(rule: ThrottleRule): { keyPrefix: string; points: number; duration: number } {
  return { keyPrefix: rule.name, points: rule.limit, duration: Math.max(1, Math.ceil(rule.windowMs / 1000)) };
}
