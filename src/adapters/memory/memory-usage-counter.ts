import { injectable } from 'inversify';
import { fits, ZERO_USAGE, type LimitKind, type Usage } from '../../domain/index.js';
import type { UsageCounter } from '../../application/ports/index.js';

/**
 * Every change reads and writes the counter in one synchronous step (no await in between), which is what makes
 * it atomic under concurrent calls, the same guarantee as a conditional `$inc`.
 */
@injectable()
export class MemoryUsageCounter implements UsageCounter {
  private readonly counters = new Map<string, Usage>();

  async reserve(userId: string, kind: LimitKind, amount: number, max: number): Promise<boolean> {
    assertAmount(amount);
    const usage = this.counters.get(userId) ?? { ...ZERO_USAGE };
    if (!fits(usage[kind], amount, max)) return false;
    usage[kind] += amount;
    this.counters.set(userId, usage);
    return true;
  }

  async release(userId: string, kind: LimitKind, amount: number): Promise<void> {
    assertAmount(amount);
    const usage = this.counters.get(userId);
    if (usage) usage[kind] = Math.max(0, usage[kind] - amount);
  }

  async get(userId: string): Promise<Usage> {
    return { ...(this.counters.get(userId) ?? ZERO_USAGE) };
  }

  async set(userId: string, usage: Usage): Promise<void> {
    this.counters.set(userId, { ...usage });
  }

  async remove(userId: string): Promise<void> {
    this.counters.delete(userId);
  }
}

/** A negative or fractional amount is a bug in the caller: it would let a counter run backwards past its floor. */
function assertAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`Invalid usage amount: ${amount}`);
}
