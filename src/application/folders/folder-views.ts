import type { Folder } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';
import type { FolderView } from '../views.js';
import { folderView } from '../views.js';

/**
 * Folders as listing hits: no nested content, but their direct child counts and share ids, in three queries
 * whatever the number of folders.
 */
export async function folderHits(
  p: Pick<Ports, 'files' | 'folders' | 'shares'>,
  ownerId: string,
  folders: readonly Folder[],
): Promise<FolderView[]> {
  if (folders.length === 0) return [];
  const ids = folders.map((folder) => folder.id);
  const [fileCounts, folderCounts, shareIds] = await Promise.all([
    p.files.countInFolders(ownerId, ids),
    p.folders.countChildren(ownerId, ids),
    p.shares.idsForItems('folder', ids),
  ]);
  return folders.map((folder) => ({
    ...folderView(folder, shareIds.get(folder.id) ?? null),
    fileCount: fileCounts.get(folder.id) ?? 0,
    folderCount: folderCounts.get(folder.id) ?? 0,
  }));
}
