import type { Actor, StoredFile } from '../../domain/index.js';
import { conflict, isTextual } from '../../domain/index.js';
import type { ResumableUploadState } from '../contract.js';
import { landFile, undoUpload, type LandingDeps } from '../files/land-file.js';
import { note, type NoteDeps } from '../activity/note.js';
import { Utf8Check } from '../files/utf8-check.js';
import type { Ports, UploadPart, UploadSession } from '../ports/index.js';
import { checkedParts } from './checked-parts.js';
import { giveBackRequestRoom } from './release-session.js';
import { appendMiss, offsetConflict } from './upload-state.js';

export type FinishDeps = LandingDeps & Pick<Ports, 'uploads' | 'clock' | 'instance' | 'requests'> & NoteDeps;

const keysOf = (parts: readonly UploadPart[]) => parts.map((part) => part.key);

/** Keys are never reused, so the same keys in the same order are the same parts. */
const sameParts = (a: readonly UploadPart[], b: readonly UploadPart[]) =>
  a.length === b.length && a.every((part, i) => part.key === b[i]!.key);

/**
 * Makes the File of a complete upload through the same rules as a single-request upload. Its parts were answered
 * before their bytes were flushed: they are checked against what is stored (a short part, left by a crash of the
 * machine, cuts the upload back and fails with 409, so the client resumes from the offset that truly exists) and
 * made durable together, all before the file can land and be answered. The session is then taken, so a termination
 * or expiry racing with this either wins (and gives everything back) or finds nothing, and the parts are this call's
 * alone to join; a crash after the take leaves a hold naming this instance and the parts and joined blob it may leave
 * behind, which another instance's sweep gives back and removes once this one is gone.
 */
export async function finishUpload(p: FinishDeps, actor: Actor, session: UploadSession): Promise<ResumableUploadState> {
  const checked = await checkedParts(p, session);
  if (!checked) throw await appendMiss(p, session.id, session.length);
  if (checked.offset !== checked.length) throw offsetConflict(checked.offset, checked.length);
  await p.blobs.makeDurable(keysOf(checked.parts));
  // From the take on, the hold belongs to no live session: naming this instance first lets another give it back if
  // this one dies before the file is recorded (whichever instance created the upload). A hold already gone (a
  // reconcile forgot it) fails the landing as a stalled upload's does.
  const key = p.blobs.newKey();
  await p.usage.claimHold(session.ownerId, session.id, p.instance.id(), [...keysOf(checked.parts), key]);
  const taken = await p.uploads.take(session.id);
  if (!taken) throw await appendMiss(p, session.id, session.length);
  let blob: { key: string; size: number };
  try {
    // Parts change after the check only if another check cut them meanwhile (they shrank under a running machine):
    // the upload is then not whole, and it ends rather than become a file of unchecked bytes.
    if (!sameParts(taken.parts, checked.parts)) throw conflict('The upload lost bytes while it was being completed');
    blob = await joined(p, taken.parts, key);
  } catch (err) {
    // The parts are nobody's now: the sweep of orphans removes them; the counts go back at once.
    await giveBackRequestRoom(p, taken);
    await undoUpload(p, taken.ownerId, taken.id, null);
    throw err;
  }
  const now = p.clock.now();
  const file: StoredFile = {
    id: taken.id,
    ownerId: taken.ownerId,
    folderId: taken.folderId,
    name: taken.name ?? taken.filename,
    mime: taken.mime ?? 'application/octet-stream',
    size: blob.size,
    blobKey: blob.key,
    uploaderTokenId: taken.uploaderTokenId,
    charset: isTextual(taken.mime ?? '') && (await isUtf8(p, blob.key)) ? 'utf-8' : null,
    ...(taken.request ? { request: { ...receipt(taken.request), receivedAt: now } } : {}),
    ...(taken.encryptedMetadata ? { encryptedMetadata: taken.encryptedMetadata } : {}),
    createdAt: now,
    updatedAt: now,
  };
  // A landing that fails takes back the bytes and counts, and the request's room first; this only makes sure.
  const view = await landFile(p, { actor, file, share: taken.share }).catch(async (err: unknown) => {
    await giveBackRequestRoom(p, taken);
    throw err;
  });
  // The room is the received file's now (left held if this fails: nothing gives back a hold that settled).
  if (taken.request) await Promise.allSettled([p.requests.settleHeld(taken.id)]);
  const { id, length } = taken;
  if (taken.request) {
    // A resumable upload's last PATCH names no client worth keeping: the event has no client details.
    note(p, { ownerId: taken.ownerId, requestId: taken.request.id }, 'received', undefined, { fileId: view.id, bytes: blob.size, complete: true });
  }
  return { id, length, offset: length, expiresAt: null, fileId: view.id, shareId: view.shareId };
}

const receipt = ({ id, uploaderName, note }: NonNullable<UploadSession['request']>) => ({
  requestId: id,
  uploaderName,
  note,
});

/**
 * One blob of the parts in order. A single part is that blob already; more are joined by the store (parts are written
 * by separate appends, possibly on separate instances, so none is ever extended in place).
 */
async function joined(
  p: Pick<Ports, 'blobs'>,
  parts: readonly UploadPart[],
  key: string,
): Promise<{ key: string; size: number }> {
  if (parts.length === 1) return { ...parts[0]! };
  if (parts.length === 0) return p.blobs.write((async function* () {})(), { key });
  return p.blobs.join(
    parts.map((part) => part.key),
    { key },
  );
}

async function isUtf8(p: Pick<Ports, 'blobs'>, key: string): Promise<boolean> {
  const check = new Utf8Check();
  for await (const _ of check.watch(await p.blobs.read(key))) void _;
  return check.end();
}
