import type { HeldAmounts, Ports } from '../ports/index.js';
import { removeFiles, type RemovalDeps } from '../files/remove-files.js';
import { deleteClaimedShares } from '../usage/record-holds.js';

export type TreeDeps = Pick<Ports, 'folders'> & RemovalDeps;

/** Files are listed and removed in pages, so a huge subtree never sits in memory at once. */
const FILE_PAGE = 1000;

/**
 * Deletes the owner's folder with everything below it, as a task that finishes whatever cuts it short: an empty hold
 * naming this instance and the folder comes first, so any instance can finish the delete once this one is gone
 * (finishTreeRemoval). False, with nothing done, when there is no such folder.
 */
export async function deleteTree(p: TreeDeps, ownerId: string, folderId: string): Promise<boolean> {
  const holdId = p.ids.newId();
  const hold = { id: holdId, at: p.clock.now(), by: p.instance.id() };
  await p.usage.beginTask(ownerId, hold, { kind: 'tree', folderId });
  if (!(await p.folders.markDeleting(ownerId, folderId))) {
    await p.usage.settleHold(ownerId, holdId);
    return false;
  }
  await removeTree(p, ownerId, holdId, folderId);
  return true;
}

/**
 * Finishes the delete of a folder that an instance now gone began (task `tree`): the whole delete again, each step
 * being idempotent, or only its last steps once the folders' counts were fixed. A folder that was never marked was
 * never deleted: the task only goes.
 */
export async function finishTreeRemoval(p: TreeDeps, hold: HeldAmounts): Promise<void> {
  if (hold.task?.kind !== 'tree') throw new Error('Not the task of a folder delete');
  const { userId, holdId } = hold;
  const by = hold.by ?? undefined;
  if (hold.fixed) return removeFolders(p, userId, holdId, by);
  if (await p.folders.findById(hold.task.folderId)) {
    await p.usage.settleHold(userId, holdId, { by });
    return;
  }
  await removeTree(p, userId, holdId, hold.task.folderId, by);
}

/**
 * Marking comes first and goes down level by level, each folder marked in one step that sees where it sits then; only
 * then are files listed. So whatever is put into one of these folders either was there before its folder was marked
 * (and is found here), or finds its folder marked when it checks again after writing (and takes itself back). Files
 * go in slices of their own (removeFiles). The folders are then claimed under the hold's id (a folder is claimed
 * once, so two deletes of one tree count each folder once), then their shares under the same id (a share is claimed
 * once: one its owner deletes meanwhile is this delete's or that one's, never both's), their counts fixed in the
 * hold, and only then do the claimed shares and folders go: a recovery that finds the hold not fixed claims again
 * and counts what it claimed (none deleted yet), one that finds it fixed reads from it what goes back. The hold's
 * release gives their counts back.
 */
async function removeTree(
  p: TreeDeps,
  ownerId: string,
  holdId: string,
  rootId: string,
  by?: string,
): Promise<void> {
  const ids = await markBelow(p, ownerId, [rootId]);

  // Each page is gone once removed, so the next listing starts on fresh files; a short page was the last one, and
  // a page of which nothing could be removed (its files claimed by another removal) stops the loop rather than
  // spinning on it.
  for (;;) {
    const files = await p.files.listInFolders(ownerId, ids, FILE_PAGE);
    const removed = files.length === 0 ? [] : await removeFiles(p, files);
    if (files.length < FILE_PAGE || removed.length === 0) break;
  }

  const claimed = await p.folders.claimDeleting(ids, holdId);
  const shares = claimed.length === 0 ? [] : await p.shares.claimByItems('folder', claimed, holdId);
  // The creates of the folders and shares counted here (one killed after its insert) are this delete's to give back.
  const counts = { folders: claimed.length, shares: shares.length };
  await p.usage.fixHeld(ownerId, holdId, counts, [], [...claimed, ...shares.map((share) => share.id)]);
  await removeFolders(p, ownerId, holdId, by);
}

/** Once the hold is fixed: the claimed folders' shares, the folders, then their counts. */
async function removeFolders(p: TreeDeps, ownerId: string, holdId: string, by?: string): Promise<void> {
  await deleteClaimedShares(p, holdId);
  await p.folders.deleteClaimed(holdId);
  await p.usage.releaseHold(ownerId, holdId, { by });
}

/** Every folder below the marked ones, marked; each id once, so even a stored cycle ends the walk. */
async function markBelow(p: TreeDeps, ownerId: string, markedIds: readonly string[]): Promise<string[]> {
  const all = new Set(markedIds);
  let level = [...all];
  while (level.length > 0) {
    level = (await p.folders.markChildrenDeleting(ownerId, level)).filter((id) => !all.has(id));
    for (const id of level) all.add(id);
  }
  return [...all];
}
