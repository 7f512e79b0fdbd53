import { unlink } from 'node:fs/promises';
import { DomainError } from '../../domain/errors.js';

export function isErrno(err: unknown, code: string): boolean {
  return err instanceof Error && (err as NodeJS.ErrnoException).code === code;
}

/**
 * File system errors name the path they failed on, which holds DATA_DIR and the blob key; neither may reach a log
 * line or a client. Errors that are not the file system's (the content's own failure) pass through untouched.
 */
export function pathless(err: unknown, action: string): unknown {
  if (!(err instanceof Error) || !('syscall' in err || 'path' in err)) return err;
  const code = (err as NodeJS.ErrnoException).code ?? 'unknown';
  return Object.assign(new Error(`The blob store could not ${action} (${code})`), { code });
}

export async function removeQuietly(path: string): Promise<void> {
  // Cleanup after a failure must never hide the failure itself.
  await unlink(path).catch(() => undefined);
}

export function blobNotFound(): DomainError {
  return new DomainError('not_found', 'Blob not found');
}
