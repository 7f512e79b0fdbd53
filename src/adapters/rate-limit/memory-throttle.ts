import { injectable } from 'inversify';
import { RateLimiterMemory, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { ThrottleRule } from '../../application/ports/throttle.js';
import { LimiterThrottle, limiterOptions } from './limiter-throttle.js';

/** Counters in this process: right for one instance; several instances need the MongoDB store to share them. */
@injectable()
export class MemoryThrottle extends LimiterThrottle {
  protected create(rule: ThrottleRule): RateLimiterAbstract {
    return new RateLimiterMemory(limiterOptions(rule));
  }
}
