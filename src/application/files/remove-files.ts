import type { LimitKind, StoredFile } from '../../domain/index.js';
import type { HeldAmounts, Ports } from '../ports/index.js';
import { deleteClaimedShares } from '../usage/record-holds.js';

export type RemovalDeps = Pick<Ports, 'files' | 'shares' | 'collections' | 'blobs' | 'usage' | 'ids' | 'clock' | 'instance' | 'activityLog' | 'mailNotices'>;

/** Files are removed in slices so a large cascade never holds more than this many in flight. */
const SLICE = 200;

/**
 * The one cascade for deleting files, in slices, each a task that finishes whatever cuts it short. A slice opens an
 * empty hold naming this instance (the task), claims its files under the hold's id (a file is claimed once, so two
 * concurrent cascades over it count it once), then claims their shares under the same id (a share is claimed once
 * too: a share its owner deletes meanwhile is either this slice's or that delete's, never both), then fixes in the
 * hold exactly what the claimed files and shares count and their blobs. Only then go the claimed shares (a recovery
 * that finds the hold not fixed claims again and counts what it claimed, none deleted yet; one that finds it fixed
 * reads from it what goes back), collection entries, the records, the bytes (best effort), and last the hold, whose
 * release gives the counts back in one atomic step. A share made of a claimed file meanwhile finds its file claimed
 * and takes itself back (shareItem). Cut anywhere, the hold says what is left, and any instance finishes it once
 * this one is gone (finishFileRemoval). Returns the files this call removed.
 */
export async function removeFiles(p: RemovalDeps, files: readonly StoredFile[]): Promise<StoredFile[]> {
  const removed: StoredFile[] = [];
  for (let start = 0; start < files.length; start += SLICE) {
    for (const [ownerId, owned] of byOwner(files.slice(start, start + SLICE))) {
      removed.push(...(await removeOwned(p, ownerId, owned)));
    }
  }
  return removed;
}

async function removeOwned(p: RemovalDeps, ownerId: string, files: readonly StoredFile[]): Promise<StoredFile[]> {
  const holdId = p.ids.newId();
  await p.usage.beginTask(ownerId, { id: holdId, at: p.clock.now(), by: p.instance.id() }, { kind: 'files' });
  const claimed = await p.files.claim(
    files.map((file) => file.id),
    holdId,
  );
  if (claimed.length === 0) {
    await p.usage.settleHold(ownerId, holdId);
    return [];
  }
  const ids = claimed.map((file) => file.id);
  await fixFileRemoval(p, ownerId, holdId, claimed);
  await deleteClaimedShares(p, holdId);
  await finishRemoval(p, ownerId, holdId, ids, blobsOf(claimed));
  return claimed;
}

/**
 * Claims the shares of the claimed files and fixes the hold with what both count. The creates of the shares counted
 * here and the uploads of the files (one killed after its insert) never settled: their counts are this removal's to
 * give back now, so their holds are forgotten in the step that fixes its own.
 */
async function fixFileRemoval(p: RemovalDeps, ownerId: string, holdId: string, claimed: readonly StoredFile[]): Promise<void> {
  const ids = claimed.map((file) => file.id);
  const shares = ids.length === 0 ? [] : await p.shares.claimByItems('file', ids, holdId);
  const forget = [...ids, ...shares.map((share) => share.id)];
  await p.usage.fixHeld(ownerId, holdId, countsOf(claimed, shares.length), blobsOf(claimed), forget);
}

/**
 * Finishes a removal of files that an instance now gone began (task `files`), from wherever it was cut: before its
 * counts were fixed nothing had been deleted, so the claimed files and shares are still there to count (claiming the
 * shares again returns those claimed before); after, the hold holds their counts and blobs.
 */
export async function finishFileRemoval(p: RemovalDeps, hold: HeldAmounts): Promise<void> {
  const { userId, holdId } = hold;
  const claimed = await p.files.claimedBy(holdId);
  const ids = claimed.map((file) => file.id);
  let blobs = hold.blobs;
  if (!hold.fixed) {
    blobs = blobsOf(claimed);
    await fixFileRemoval(p, userId, holdId, claimed);
  }
  await deleteClaimedShares(p, holdId);
  await finishRemoval(p, userId, holdId, ids, blobs, hold.by ?? undefined);
}

/** Collection entries, records, bytes, then the counts: the order of every removal, whoever finishes it. */
async function finishRemoval(
  p: RemovalDeps,
  ownerId: string,
  holdId: string,
  ids: readonly string[],
  blobs: readonly string[],
  by?: string,
): Promise<void> {
  if (ids.length > 0) await p.collections.removeFilesEverywhere(ownerId, ids);
  await p.files.deleteClaimed(holdId);
  // The records are gone, so the counts must follow whatever the store says: bytes it failed to delete are orphans
  // the sweep removes later, while a skipped release would hold the owner's quota for nothing, for ever.
  await Promise.allSettled(blobs.map((key) => p.blobs.delete(key)));
  await p.usage.releaseHold(ownerId, holdId, { by });
}

function countsOf(files: readonly StoredFile[], shares: number): Partial<Record<LimitKind, number>> {
  const counts: Partial<Record<LimitKind, number>> = { files: files.length, shares };
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  if (bytes > 0) counts.storage = bytes;
  return counts;
}

const blobsOf = (files: readonly StoredFile[]) => files.map((file) => file.blobKey);

function byOwner(files: readonly StoredFile[]): Map<string, StoredFile[]> {
  const groups = new Map<string, StoredFile[]>();
  for (const file of files) {
    const group = groups.get(file.ownerId);
    if (group) group.push(file);
    else groups.set(file.ownerId, [file]);
  }
  return groups;
}
