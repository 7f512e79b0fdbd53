import type { FileRequest } from '../../domain/index.js';
import { REQUEST_MESSAGE_MAX, badRequest, isWellFormed, normalizeAllowedTypes, requireName } from '../../domain/index.js';
import type { RequestOptions } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { sharePasswordHash } from '../shares/share-password.js';

type Checked = Partial<Omit<FileRequest, 'id' | 'ownerId' | 'ownerName' | 'folderId' | 'files' | 'bytes' | 'createdAt' | 'updatedAt'>>;

const isMaximum = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;

/**
 * The options named, checked and as stored: an absent one is left out (the default on create, unchanged on update),
 * null clears it. A new request may not expire in the past; an existing one may (it ends at once).
 */
export async function requestOptions(
  p: Pick<Ports, 'hasher'>,
  options: RequestOptions & { name?: string },
  now: Date,
  creating: boolean,
): Promise<Checked> {
  const out: Checked = {};
  if (options.name !== undefined) out.name = requireName(options.name);
  if (options.message !== undefined) out.message = message(options.message);
  if (options.password !== undefined) out.passwordHash = await sharePasswordHash(p, options.password);
  if (options.expiresAt !== undefined) {
    const { expiresAt } = options;
    if (expiresAt !== null && !(expiresAt instanceof Date && Number.isFinite(expiresAt.getTime()))) {
      throw badRequest('expiresAt must be a timestamp or null', { field: 'expiresAt' });
    }
    if (creating && expiresAt !== null && expiresAt.getTime() <= now.getTime()) {
      throw badRequest('expiresAt must lie in the future', { field: 'expiresAt' });
    }
    out.expiresAt = expiresAt;
  }
  for (const field of ['maxFiles', 'maxBytes', 'maxFileBytes'] as const) {
    const value = options[field];
    if (value === undefined) continue;
    if (value !== null && !isMaximum(value)) throw badRequest(`${field} must be at least 1, or null`, { field });
    out[field] = value;
  }
  if (options.allowedTypes !== undefined) out.allowedTypes = normalizeAllowedTypes(options.allowedTypes ?? []);
  if (options.requireName !== undefined) out.requireName = options.requireName;
  return out;
}

function message(raw: string | null): string | null {
  if (raw === null || raw.trim() === '') return null;
  if (!isWellFormed(raw)) throw badRequest('message must be valid Unicode text', { field: 'message' });
  if ([...raw].length > REQUEST_MESSAGE_MAX) {
    throw badRequest(`message must be at most ${REQUEST_MESSAGE_MAX} characters long`, { field: 'message' });
  }
  return raw.trim();
}
