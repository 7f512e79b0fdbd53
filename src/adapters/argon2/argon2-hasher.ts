import { argon2id, hash, verify } from 'argon2';
import { availableParallelism } from 'node:os';
import { inject, injectable } from 'inversify';
import type { PasswordHasher } from '../../application/ports/password-hasher.js';
import { WorkLimit } from './work-limit.js';

export const Argon2Options = Symbol('Argon2Options');
export interface Argon2Options {
  /** KiB. */
  memoryCost: number;
  timeCost: number;
  parallelism: number;
  /** Hashes and verifies running at once; default: see defaultMaxConcurrent. */
  maxConcurrent?: number;
  /** Calls waiting for a turn before further ones are refused with rate_limited; default 64. */
  maxQueued?: number;
}

/** OWASP's floor for argon2id (m=19 MiB, t=2, p=1): the production default. */
export const OWASP_ARGON2: Argon2Options = Object.freeze({ memoryCost: 19456, timeCost: 2, parallelism: 1 });

export const DEFAULT_MAX_QUEUED = 64;

/**
 * argon2 runs on libuv's thread pool (UV_THREADPOOL_SIZE, 4 unless set; `npm start` sets 6), which file I/O shares.
 * One thread always stays out of argon2's reach, so a login storm never stalls downloads. Up to twice the cores may
 * hash: argon2's memory-bound passes leave a core waiting on RAM, and on 2 cores 4 verifications at once measured
 * 20% more throughput than 3 (and than 2). Beyond that more threads only add memory (19 MiB each).
 */
export function defaultMaxConcurrent(
  pool = Number(process.env.UV_THREADPOOL_SIZE) || 4,
  cores = availableParallelism(),
): number {
  return Math.max(1, Math.min(pool - 1, 2 * cores));
}

@injectable()
export class Argon2Hasher implements PasswordHasher {
  /** Every hash and verify goes through here: memory in use is at most maxConcurrent × memoryCost. */
  readonly work: WorkLimit;

  constructor(@inject(Argon2Options) private readonly options: Argon2Options) {
    this.work = new WorkLimit(options.maxConcurrent ?? defaultMaxConcurrent(), options.maxQueued ?? DEFAULT_MAX_QUEUED);
  }

  hash(password: string): Promise<string> {
    return this.work.run(() =>
      hash(password, {
        type: argon2id,
        memoryCost: this.options.memoryCost,
        timeCost: this.options.timeCost,
        parallelism: this.options.parallelism,
      }),
    );
  }

  verify(digest: string, password: string): Promise<boolean> {
    return this.work.run(async () => {
      try {
        return await verify(digest, password);
      } catch {
        // A malformed or foreign digest is simply not a match; login must answer the same 401 either way.
        return false;
      }
    });
  }
}
