export const PasswordHasher = Symbol('PasswordHasher');
/** Both methods reject with rate_limited when too much hashing is already under way or waiting. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password and for a malformed hash; never throws for either. */
  verify(hash: string, password: string): Promise<boolean>;
}
