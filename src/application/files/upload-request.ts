import type { Actor } from '../../domain/index.js';
import { DomainError, assertMay, badRequest, checkEncryptedMetadata, cleanName, requireName } from '../../domain/index.js';
import type { ShareOptions } from '../contract.js';
import { owned } from '../owned.js';
import type { Ports } from '../ports/index.js';
import { shareLimits } from '../shares/share-limits.js';

/** The display name of an upload whose filename cleans down to nothing (and no name was given). */
export const UNTITLED_FILE = 'untitled';

/** Seconds a client refused for running too many uploads is told to wait (Retry-After). */
export const UPLOADS_RETRY_AFTER = 5;

export const tooManyUploads = (max: number) =>
  new DomainError('rate_limited', `At most ${max} uploads of one user may run at once; retry when one has finished`, {
    retryAfter: UPLOADS_RETRY_AFTER,
  });

export interface UploadRequest {
  folderId: string | null;
  name: string | null;
  filename: string;
  share?: ShareOptions | null;
  /** An end-to-end encrypted upload's sealed metadata object (docs/API.md, "End-to-end encrypted files"). */
  encryptedMetadata?: string | null;
}

/**
 * What every upload checks before it takes a byte, single-request or resumable: the right to upload, the options of
 * the share asked for, the folder. Returns the file's display name.
 */
export async function admitUpload(
  p: Pick<Ports, 'folders' | 'clock'>,
  actor: Actor,
  { folderId, name, filename, share, encryptedMetadata }: UploadRequest,
): Promise<string> {
  assertMay(actor, 'file.upload');
  if (encryptedMetadata) {
    checkEncryptedMetadata(encryptedMetadata);
    // A name chosen in the clear would say what the encryption hides; the real one is in the sealed metadata.
    if (name !== null) throw badRequest('An encrypted file takes no name: it is in its encrypted metadata', { field: 'name' });
  }
  if (share) shareLimits(share, p.clock.now(), true);
  if (folderId !== null) owned(await p.folders.findById(folderId), actor.userId, 'Folder');
  // An explicit name must be usable; a filename is whatever the client's disk had, so it only falls back.
  return name !== null ? requireName(name) : cleanName(filename) || UNTITLED_FILE;
}
