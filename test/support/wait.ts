import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BlobStore } from '../../src/application/ports/blob-store.js';

/** Polls `check` every 25 ms until it holds, for at most 5 s; then fails naming `what`. */
export async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * The names of every file a filesystem blob store holds (blobs and temporary files alike), read from disk. The
 * store keeps its directory private; tests read raw storage rather than trusting the store.
 */
export async function filesOnDisk(store: BlobStore): Promise<string[]> {
  return filesUnder(join((store as unknown as { blobsDir: string }).blobsDir, '..'));
}

/** The names of every file below `dir`, at any depth; none when it does not exist. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => e.name);
}
