import type { Actor, LimitKind, StoredFile } from '../../domain/index.js';
import { badRequest, notFound } from '../../domain/index.js';
import type { ShareOptions } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { removeFiles } from './remove-files.js';
import { shareItem, type ShareDeps } from '../shares/create-share.js';
import { fileView } from '../views.js';
import type { FileView } from '../views.js';

export type LandingDeps = Pick<Ports, 'files' | 'folders' | 'blobs' | 'usage' | 'shares' | 'collections' | 'instance' | 'requests' | 'activityLog' | 'mailNotices'> &
  ShareDeps;

/** What an upload makes once its bytes are stored and its counts are held under the hold named by `file.id`. */
export interface Landing {
  actor: Actor;
  file: StoredFile;
  /** The share asked for with the upload; `passwordHash` when the password was hashed earlier (resumable uploads). */
  share: (ShareOptions & { passwordHash?: string | null }) | null;
  deliver?: (file: FileView) => Promise<boolean>;
}

/**
 * The one way an upload becomes a File, for single-request and resumable uploads alike: the record, a check that its
 * folder still stands, the hold's counts handed to the record, the share, and the answer. Whatever fails before the
 * record stands takes back the bytes and the hold.
 */
export async function landFile(p: LandingDeps, { actor, file, share, deliver }: Landing): Promise<FileView> {
  try {
    await p.files.insert(file);
  } catch (err) {
    await giveBackRequestRoom(p, file);
    await undoUpload(p, file.ownerId, file.id, file.blobKey);
    throw err;
  }
  if (file.folderId !== null) await assertLanded(p, file, file.folderId);
  await settle(p, file);
  const view = fileView(file, share ? await shareOf(p, file, actor, share) : null);
  if (deliver && !(await deliver(view).catch(() => false))) {
    // Nobody learnt of this file, so nobody can use or delete it: it goes as if the upload had been aborted.
    await giveBackRequestRoom(p, file);
    await removeFiles(p, [file]);
    throw badRequest('The client went away before the upload could be answered');
  }
  return view;
}

/**
 * A file received through a request that does not land gives the request back the room its hold holds, before the
 * hold goes (once the hold is gone, nothing would know of the room). Best effort, at most once (giveBackHeld).
 */
async function giveBackRequestRoom(p: Pick<Ports, 'requests'>, file: StoredFile): Promise<void> {
  if (file.request) await Promise.allSettled([p.requests.giveBackHeld(file.id)]);
}

/** Best effort, in the usual order (bytes, then counts); the caller must see the original failure, not ours. */
export async function undoUpload(
  p: Pick<Ports, 'blobs' | 'usage'>,
  userId: string,
  holdId: string,
  blobKey: string | null,
): Promise<void> {
  if (blobKey !== null) await Promise.allSettled([p.blobs.delete(blobKey)]);
  await Promise.allSettled([p.usage.releaseHold(userId, holdId)]);
}

/**
 * The folder was checked before the bytes came, maybe long ago: a delete of it may have marked it since. Then
 * the file takes itself back, claiming its record as any removal does (under the upload's own id). If the claim is
 * this call's, the record, its bytes and its held counts go; if the folder's delete claimed the record first, that
 * delete counts it and gives the counts back, so the hold is only forgotten.
 */
async function assertLanded(p: LandingDeps, file: StoredFile, folderId: string): Promise<void> {
  if (await p.folders.findById(folderId)) return;
  await giveBackRequestRoom(p, file);
  if (await takenBack(p, file)) {
    await undoUpload(p, file.ownerId, file.id, file.blobKey);
  } else {
    await Promise.allSettled([p.usage.settleHold(file.ownerId, file.id)]);
  }
  throw notFound('Folder');
}

/** Claims the upload's own record under its id and deletes it; false when a removal claimed it first. */
async function takenBack(p: LandingDeps, file: StoredFile): Promise<boolean> {
  if ((await p.files.claim([file.id], file.id)).length === 0) return false;
  return (await p.files.deleteClaimed(file.id)) > 0;
}

/** The share the upload asked for, made as any share is; if it cannot be made, the upload goes too. */
async function shareOf(p: LandingDeps, file: StoredFile, actor: Actor, options: ShareOptions): Promise<string> {
  try {
    return (await shareItem(p, actor, 'file', file.id, options)).id;
  } catch (err) {
    await giveBackRequestRoom(p, file);
    await removeFiles(p, [file]);
    throw err;
  }
}

/**
 * The counts now belong to the record. If settling fails the file stands and the sweep settles the hold later. If
 * the hold no longer holds the whole upload, a sweep took it for crashed and gave counts back (marked given back, or an old hold
 * trimmed): the file would then exceed what is counted, so it goes.
 */
async function settle(p: LandingDeps, file: StoredFile): Promise<void> {
  const held = await p.usage.settleHold(file.ownerId, file.id).catch(() => undefined);
  if (held === undefined || (held?.files === 1 && (held.storage ?? 0) === file.size)) return;
  // The hold is gone but its counts were not given back: the sweep of gone instances found the record and settled it (this instance
  // was taken for dead while it stalled), or a removal that counted the record forgot it. The count is the record's.
  if (held === null && !(await p.usage.wasGivenBack(file.ownerId, file.id).catch(() => true))) return;
  // A removal that claimed the record first deletes its bytes and gives its counts back itself.
  const deleted = await takenBack(p, file);
  if (deleted) await Promise.allSettled([p.blobs.delete(file.blobKey)]);
  if (deleted && held) {
    for (const [kind, amount] of Object.entries(held) as [LimitKind, number][]) {
      await p.usage.release(file.ownerId, kind, amount);
    }
  }
  throw new Error('The upload stalled past the grace period and its reservations were given back');
}
