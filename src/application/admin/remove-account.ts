import { forgetActivity } from '../activity/forget.js';
import type { HeldAmounts, Ports } from '../ports/index.js';

export type AccountDeps = Pick<
  Ports,
  'users' | 'tokens' | 'secondFactors' | 'passkeys' | 'properties' | 'locks' | 'files' | 'folders' | 'collections' | 'pastes' | 'shares' | 'uploads' | 'usage' | 'blobs' | 'requests' | 'activityLog' | 'mailNotices' | 'webhooks'
>;

/**
 * Removes everything the account owns. Credentials go first so the user cannot add anything while the cascade runs;
 * then whatever points at other records (shares, collections) before what they point at. A file's bytes go before its
 * record (with the shares and credentials gone nobody can read them, and a cut here leaves the record to find the
 * bytes by), so do an unfinished upload's parts. Then the user record, and last the counters, which carry the task
 * that lets any instance finish a cascade cut short (finishAccountRemoval). Each step can simply be run again.
 * Returns whether this call deleted the user record (its outcome, for the caller to judge).
 */
export async function removeAccount(p: AccountDeps, userId: string): Promise<Awaited<ReturnType<Ports['users']['delete']>>> {
  await p.tokens.deleteByUser(userId);
  await p.passkeys.deleteByUser(userId);
  await p.secondFactors.deleteByUser(userId);
  await p.locks.remove(userId);
  await p.properties.remove(userId);
  // Its file requests first: their links stop taking files before anything else goes.
  const requests = await p.requests.listByOwner(userId);
  for (const request of requests) await p.requests.delete(request.id);
  // Claimed ones too: the deletions that claimed them end with the counters, which go last.
  const shareIds = await p.shares.deleteByOwner(userId);
  await forgetActivity(p, { shareIds, requestIds: requests.map((r) => r.id) });
  await p.webhooks.removeOwner(userId);
  for (const collection of await p.collections.listByOwner(userId)) await p.collections.delete(collection.id);
  for (const paste of await p.pastes.listByOwner(userId)) await p.pastes.delete(paste.id);
  for (const file of await p.files.listByOwner(userId)) {
    // A store failure leaves orphan bytes for the sweep; it must not keep the account (and its tokens' owner) alive.
    await Promise.allSettled([p.blobs.delete(file.blobKey)]);
    await p.files.delete(file.id);
  }
  // Unfinished resumable uploads go with their bytes (an append still under way then fails to land).
  for (const uploadId of await p.uploads.idsByOwner(userId)) {
    const session = await p.uploads.findById(uploadId);
    if (session) await Promise.allSettled(session.parts.map((part) => p.blobs.delete(part.key)));
    await p.uploads.take(uploadId);
  }
  const folders = await p.folders.listByOwner(userId);
  if (folders.length > 0) await p.folders.deleteMany(folders.map((f) => f.id));
  const outcome = await p.users.delete(userId);
  await p.usage.remove(userId);
  return outcome;
}

/** Finishes the deletion of an account that an instance now gone began (task `user`). */
export async function finishAccountRemoval(p: AccountDeps, hold: HeldAmounts): Promise<void> {
  await removeAccount(p, hold.userId);
}
