import { MongoError } from 'mongodb';

/** E11000: a unique index refused the write, so nothing was written. */
export function isDuplicateKey(err: unknown): boolean {
  return err instanceof MongoError && err.code === 11000;
}
