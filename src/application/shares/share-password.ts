import { badRequest } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';

export const SHARE_PASSWORD_MAX = 256;

/** null or '' leaves the share open; anything else must be a string of 1..256 characters and is stored hashed. */
export async function sharePasswordHash(p: Pick<Ports, 'hasher'>, password: unknown): Promise<string | null> {
  if (password === null || password === undefined || password === '') return null;
  if (typeof password !== 'string' || [...password].length > SHARE_PASSWORD_MAX) {
    throw badRequest(`password must be a string of at most ${SHARE_PASSWORD_MAX} characters, or null`, {
      field: 'password',
    });
  }
  return p.hasher.hash(password);
}
