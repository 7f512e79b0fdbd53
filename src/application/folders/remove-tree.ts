import type { Ports } from '../ports/index.js';
import { removeFiles } from '../remove-files.js';

type Deps = Pick<Ports, 'folders' | 'files' | 'shares' | 'collections' | 'blobs' | 'usage'>;

/** Files are listed and removed in pages, so a huge subtree never sits in memory at once. */
const FILE_PAGE = 1000;

/**
 * Deletes folders already marked as being deleted, with everything below them. Marking comes first and goes down
 * level by level, each folder marked in one step that sees where it sits then; only then are files listed. So
 * whatever is put into one of these folders either was there before its folder was marked (and is found here), or
 * finds its folder marked when it checks again after writing (and takes itself back). Whoever actually deletes a
 * record releases its counts, so nothing is released twice. A failure half-way leaves marked folders that another
 * delete of the same folder finishes.
 */
export async function removeTree(p: Deps, ownerId: string, markedIds: readonly string[]): Promise<void> {
  const ids = await markBelow(p, ownerId, markedIds);

  // Each page is gone once removed, so the next listing starts on fresh files; a short page was the last one, and
  // a page of which nothing could be removed stops the loop rather than spinning on it.
  for (;;) {
    const files = await p.files.listInFolders(ownerId, ids, FILE_PAGE);
    const removed = files.length === 0 ? [] : await removeFiles(p, files);
    if (files.length < FILE_PAGE || removed.length === 0) break;
  }

  const shares = await p.shares.deleteByItems('folder', ids);
  for (const share of shares) await p.usage.release(share.ownerId, 'shares', 1);
  const deleted = await p.folders.deleteMany(ids);
  if (deleted > 0) await p.usage.release(ownerId, 'folders', deleted);
}

/** Every folder below the marked ones, marked; each id once, so even a stored cycle ends the walk. */
async function markBelow(p: Deps, ownerId: string, markedIds: readonly string[]): Promise<string[]> {
  const all = new Set(markedIds);
  let level = [...all];
  while (level.length > 0) {
    level = (await p.folders.markChildrenDeleting(ownerId, level)).filter((id) => !all.has(id));
    for (const id of level) all.add(id);
  }
  return [...all];
}
