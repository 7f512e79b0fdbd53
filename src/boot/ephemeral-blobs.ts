import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writerGone, writerPrefix } from '../adapters/fs-blob-store/writer.js';

/**
 * With memory persistence the records die with the process, so their bytes must too. They go in a directory of
 * this run's own under `<DATA_DIR>/ephemeral`, apart from the `blobs/` and `tmp/` a durable persistence keeps in
 * the same DATA_DIR, removed when the service closes and, after a crash, by the next start.
 */
export const EPHEMERAL_DIR = 'ephemeral';

export interface EphemeralBlobDir {
  dir: string;
  remove(): Promise<void>;
}

/** Directories of runs whose process is gone (killed, crashed): nothing can point at their bytes any more. */
export function removeDeadRuns(dataDir: string): string[] {
  const root = join(dataDir, EPHEMERAL_DIR);
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  // Named after their writer (host, pid, start time), as temporary files are: a pid reused by a later start (PID 1 in
  // a container) or another host sharing the directory is told apart.
  const dead = names.filter((name) => name.startsWith('run-') && writerGone(name.slice(4)));
  for (const name of dead) rmSync(join(root, name), { recursive: true, force: true });
  return dead;
}

/** Claims a fresh directory for this run's bytes, after clearing what dead runs left. */
export function claimEphemeralBlobDir(dataDir: string): EphemeralBlobDir {
  removeDeadRuns(dataDir);
  const dir = join(dataDir, EPHEMERAL_DIR, `run-${writerPrefix()}-${randomBytes(6).toString('hex')}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return { dir, remove: () => rm(dir, { recursive: true, force: true, maxRetries: 3 }) };
}
