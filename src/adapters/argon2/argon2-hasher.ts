import { argon2id, hash, verify } from 'argon2';
import { inject, injectable } from 'inversify';
import type { PasswordHasher } from '../../application/ports/password-hasher.js';

export const Argon2Options = Symbol('Argon2Options');
export interface Argon2Options {
  /** KiB. */
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** OWASP's floor for argon2id (m=19 MiB, t=2, p=1): the production default. */
export const OWASP_ARGON2: Argon2Options = Object.freeze({ memoryCost: 19456, timeCost: 2, parallelism: 1 });

@injectable()
export class Argon2Hasher implements PasswordHasher {
  constructor(@inject(Argon2Options) private readonly options: Argon2Options) {}

  hash(password: string): Promise<string> {
    return hash(password, {
      type: argon2id,
      memoryCost: this.options.memoryCost,
      timeCost: this.options.timeCost,
      parallelism: this.options.parallelism,
    });
  }

  async verify(digest: string, password: string): Promise<boolean> {
    try {
      return await verify(digest, password);
    } catch {
      // A malformed or foreign digest is simply not a match; login must answer the same 401 either way.
      return false;
    }
  }
}
