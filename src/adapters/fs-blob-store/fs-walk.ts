import { readdir, stat } from 'node:fs/promises';
import { isErrno, pathless } from './fs-errors.js';

// Walks that run while writes and deletes go on: whatever vanishes mid-walk simply is not there.

/** The entries of `dir`, or none when it does not exist (yet, or any more). */
export async function entriesOf(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return [];
    throw pathless(err, 'list its directory');
  }
}

/** When the entry was last written, or null when it went away in the meantime. */
export async function modifiedAt(path: string): Promise<Date | null> {
  try {
    return (await stat(path)).mtime;
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return null;
    throw pathless(err, 'list its directory');
  }
}
