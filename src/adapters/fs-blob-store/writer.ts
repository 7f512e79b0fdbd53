import { createHash } from 'node:crypto';
import { hostname } from 'node:os';

/** Whether a process of this host still runs. EPERM means it does, under another user. */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// A temporary file names its writer (host, pid and start time), so a start-up can tell what a crash left (the
// writer is gone) from a write still under way on another instance that shares the disk.
const HOST = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);
const STARTED = Math.round(performance.timeOrigin).toString(36);
const WRITER_PATTERN = /^([0-9a-f]{8})-(\d+)-([0-9a-z]+)-[0-9a-f]+$/;

export const writerPrefix = (): string => `${HOST}-${process.pid}-${STARTED}`;

/**
 * True when the temporary file's writer ran on this host and is gone: a process that no longer exists, or this
 * very pid started at another time (a container restarted with the same pid). Other hosts' writers are left to
 * the age rule.
 */
export function writerGone(tmpName: string): boolean {
  const match = WRITER_PATTERN.exec(tmpName);
  if (match === null || match[1] !== HOST) return false;
  const pid = Number(match[2]);
  if (pid === process.pid) return match[3] !== STARTED;
  return !processAlive(pid);
}

/** As writerGone, for a process named by writerPrefix() alone (an instance's lease names its process so). */
export const processGone = (prefix: string): boolean => writerGone(`${prefix}-0`);
