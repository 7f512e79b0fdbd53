import { finishAccountRemoval, type AccountDeps } from '../admin/remove-account.js';
import { finishTreeRemoval, type TreeDeps } from '../folders/remove-tree.js';
import type { HeldAmounts, Ports, Task } from '../ports/index.js';
import { finishFileRemoval } from '../files/remove-files.js';
import { finishRewrite } from '../pastes/rewrite-hold.js';
import { finishDrop, recordExists, settleCreate, undoCreate } from '../usage/record-holds.js';

export type RecoveryDeps = TreeDeps & AccountDeps & Pick<Ports, 'instance'>;
export type RecoveryOutcome = 'settled' | 'released' | 'kept' | 'finished';

/**
 * Finishes or undoes one piece of work of an instance that is gone. A task (a removal) is finished from wherever it
 * was cut. A small record's create is settled if its record exists and given back if not; its delete is finished;
 * a paste rewrite is ended by whether the paste names its hold (finishRewrite).
 * An upload's hold is settled if its file was recorded (the counts now belong to the record), handed to its
 * resumable upload if that still lives (its expiry decides), handed to the upload's own hold if it is an append whose
 * part was committed, and released otherwise: counts and upload slot come back, and the room it held in a file
 * request (RequestRepository.giveBackHeld, once). Each change to the hold applies only
 * while it still names the gone instance, so an instance that took the hold over meanwhile (completing a resumable
 * upload) wins. Once the hold is settled or released, the blobs it listed that no record names go: bytes renamed
 * into place before their record was written.
 */
export async function recoverHold(p: RecoveryDeps, hold: HeldAmounts): Promise<RecoveryOutcome> {
  switch (hold.task?.kind) {
    case 'files':
      await finishFileRemoval(p, hold);
      return 'finished';
    case 'tree':
      await finishTreeRemoval(p, hold);
      return 'finished';
    case 'user':
      await finishAccountRemoval(p, hold);
      return 'finished';
    case 'create':
      return (await recordExists(p, hold.userId, hold.task.record, hold.holdId)) ? settleCreate(p, hold) : undoCreate(p, hold);
    case 'drop':
      await finishDrop(p, hold);
      return 'finished';
    case 'rewrite':
      return finishRewrite(p, hold);
    case 'replace':
      return recoverReplace(p, hold, hold.task);
  }
  const { userId, holdId } = hold;
  const by = hold.by ?? undefined;
  const session = await p.uploads.findById(holdId);
  if (session?.ownerId === userId) {
    if (by !== undefined) await p.usage.disownHold(userId, holdId, by);
    return 'kept';
  }
  const file = await p.files.findById(holdId);
  if (file?.ownerId === userId) {
    if (await p.usage.settleHold(userId, holdId, { by })) await dropUnnamed(p, hold.blobs);
    // A file received through a request keeps the room it took there: the request forgets the hold.
    if (file.request) await p.requests.settleHeld(holdId);
    return 'settled';
  }
  if (await handedToUpload(p, hold)) return 'kept';
  // An upload's own hold (it holds a file) is marked given back: its instance, should it live on, then knows its file is
  // not counted (landFile).
  const mark = hold.amounts.files !== undefined ? ('given back' as const) : undefined;
  if (await p.usage.releaseHold(userId, holdId, { by }, mark)) {
    // Only the call that released the hold gives the request's room back: an instance that claimed the hold meanwhile
    // (completing a resumable upload) keeps both. A request holds nothing under most holds; then this changes nothing.
    await p.requests.giveBackHeld(holdId);
    await dropUnnamed(p, hold.blobs);
  }
  return 'released';
}

/**
 * A file's new bytes (ReplaceFileContent) cut by its instance's death. The file tells whether the swap landed: it
 * names the hold's new blob. Landed (or fixed already, which only a landed swap does), the hold is fixed to hold the
 * old bytes, and its release gives them back; the old blob, named by no record, goes. Not landed, the hold's release
 * gives the new bytes back, marked so (the instance, should it live on after all, then swaps the old bytes back), and
 * the new blob goes. Each change applies only while the hold names the gone instance.
 */
async function recoverReplace(p: RecoveryDeps, hold: HeldAmounts, task: Extract<Task, { kind: 'replace' }>): Promise<RecoveryOutcome> {
  const { userId, holdId } = hold;
  const by = hold.by ?? undefined;
  const file = hold.fixed ? null : await p.files.findById(task.fileId);
  const landed = hold.fixed || (file !== null && file.blobKey !== task.blobKey && hold.blobs.includes(file.blobKey));
  if (!landed) {
    if (await p.usage.releaseHold(userId, holdId, { by }, 'given back')) await dropUnnamed(p, hold.blobs);
    return 'released';
  }
  if (!hold.fixed) await p.usage.fixHeld(userId, holdId, { storage: task.size }, [task.blobKey]);
  if (await p.usage.releaseHold(userId, holdId, { by })) await dropUnnamed(p, [task.blobKey]);
  return 'finished';
}

/** An append cut after its part was committed: its metered bytes go to the upload's hold, as the append would have. */
async function handedToUpload(p: RecoveryDeps, { userId, holdId, amounts, blobs }: HeldAmounts): Promise<boolean> {
  for (const key of blobs) {
    const session = await p.uploads.findByPart(key);
    if (session?.ownerId !== userId) continue;
    const to = { id: session.id, at: p.clock.now() };
    return p.usage.moveHeld(userId, holdId, to, 'storage', amounts.storage ?? 0);
  }
  return false;
}

/** Deletes those of `keys` that no file and no unfinished upload names. */
async function dropUnnamed(p: RecoveryDeps, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  const [files, parts] = await Promise.all([p.files.referencedBlobKeys(keys), p.uploads.referencedPartKeys(keys)]);
  const unnamed = keys.filter((key) => !files.has(key) && !parts.has(key));
  // A delete that fails leaves an orphan for the hourly sweep of orphan blobs; the counts are right either way.
  await Promise.allSettled(unnamed.map((key) => p.blobs.delete(key)));
}

/**
 * The order work is finished in: a file's new bytes first (a removal of the file finished before would leave nothing
 * to tell whether they landed), then files (their slices belong to a folder delete), then folder deletes, then the
 * creates of single records and paste rewrites (told landed by the paste, so before a delete takes it), then the
 * deletes of single records, then an account's deletion, uploads last.
 */
const ORDER = { replace: 0, files: 1, tree: 2, create: 3, rewrite: 3, drop: 4, user: 5 } as const;
export const inOrder = (holds: readonly HeldAmounts[]) =>
  [...holds].sort((a, b) => (a.task ? ORDER[a.task.kind] : 6) - (b.task ? ORDER[b.task.kind] : 6));

/**
 * Finishes what instances now gone left of one user's work, before a delete of theirs starts: a delete repeated after
 * a crash thus finishes the one cut short. Best effort: the user's own delete must not fail for it (the sweep of gone
 * instances tries again).
 */
export async function recoverUserWork(p: RecoveryDeps, userId: string): Promise<void> {
  try {
    const named = (await p.usage.holdsOf(userId)).filter((hold) => hold.by !== null);
    if (named.length === 0) return;
    const gone = await p.instance.gone(named.map((hold) => hold.by!));
    for (const hold of inOrder(named.filter((h) => gone.has(h.by!)))) await recoverHold(p, hold);
  } catch {
    // Left for the sweep.
  }
}
