import { formatCount, formatSize } from '../../common/format.js';
import { api } from '../api.js';
import type { Picked } from './collect.js';

/** How many folders a batch creates: every distinct path prefix. */
export function folderPaths(picked: Picked[]): string[][] {
  const seen = new Map<string, string[]>();
  for (const { dirs } of picked) {
    for (let depth = 1; depth <= dirs.length; depth += 1) seen.set(dirs.slice(0, depth).join('/'), dirs.slice(0, depth));
  }
  return [...seen.values()].sort((a, b) => a.length - b.length);
}

/**
 * Refuses a batch that cannot fit before a byte is sent, in a sentence naming the limit and the room left. The server checks
 * again, atomically, as each file arrives: this only spares a person a doomed wait.
 */
export async function assertRoom(picked: Picked[]): Promise<void> {
  const usage = await api.usage();
  const bytes = picked.reduce((sum, { file }) => sum + file.size, 0);
  const room = (kind: 'files' | 'folders') => usage[kind].max - usage[kind].current;
  const storageLeft = Math.max(0, Number(usage.storage.max) - Number(usage.storage.current));
  if (bytes > storageLeft) {
    throw new Error(`Not enough room: these files need ${formatSize(String(bytes))} and your storage limit leaves ${formatSize(String(storageLeft))}.`);
  }
  const left = (kind: 'files' | 'folders', one: string, many: string) => formatCount(Math.max(0, room(kind)), one, many);
  if (picked.length > room('files')) {
    throw new Error(`Not enough room: your files limit leaves room for ${left('files', 'more file', 'more files')}, and these are ${picked.length}.`);
  }
  const folders = folderPaths(picked).length;
  if (folders > room('folders')) {
    throw new Error(`Not enough room: your folders limit leaves room for ${left('folders', 'more folder', 'more folders')}, and this needs ${folders}.`);
  }
}
