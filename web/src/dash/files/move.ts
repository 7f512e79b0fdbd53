import { api } from '../api.js';
import type { Entry } from './entries.js';

/** Moves entries one request each (the API moves one item at a time); stops at the first refusal. */
export async function moveEntries(entries: Entry[], to: string | null): Promise<void> {
  for (const entry of entries) {
    if (entry.kind === 'folder') {
      if (entry.id !== to) await api.updateFolder(entry.id, { parentId: to });
    } else await api.updateFile(entry.id, { folderId: to });
  }
}

export async function deleteEntries(entries: Entry[]): Promise<void> {
  for (const entry of entries) {
    if (entry.kind === 'folder') await api.deleteFolder(entry.id);
    else await api.deleteFile(entry.id);
  }
}

/** What a drag of entries carries: their ids, under a type of our own, so dropped OS files are never taken for it. */
export const DRAG_TYPE = 'application/x-coffer-entries';
