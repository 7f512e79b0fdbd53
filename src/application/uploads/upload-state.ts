import type { Actor } from '../../domain/index.js';
import { DomainError, badRequest, conflict, mayShareItem, notFound, unauthorized } from '../../domain/index.js';
import type { ResumableUploadState } from '../contract.js';
import { MAX_UPLOAD_PARTS, type Ports, type UploadSession } from '../ports/index.js';

export const uploadGone = () => new DomainError('gone', 'This upload has expired; start a new one');

export const isLive = (session: UploadSession, now: Date) => session.expiresAt.getTime() > now.getTime();

export function stateOf(session: UploadSession): ResumableUploadState {
  const { id, length, offset, expiresAt } = session;
  return { id, length, offset, expiresAt: new Date(expiresAt), fileId: null, shareId: null };
}

/**
 * The upload as its owner may see it: live, or complete (its file carries the upload's id, so a client that missed
 * the last answer still learns the upload is whole, and the share its file has). A foreign upload is as missing as
 * an unknown one.
 */
export async function ownedUpload(
  p: Pick<Ports, 'uploads' | 'files' | 'shares' | 'clock'>,
  actor: Actor | null,
  id: string,
): Promise<{ session: UploadSession | null; state: ResumableUploadState }> {
  const session = await p.uploads.findById(id);
  if (session && reaches(actor, session)) {
    if (!isLive(session, p.clock.now())) throw uploadGone();
    return { session, state: stateOf(session) };
  }
  const file = session ? null : await p.files.findById(id);
  if (!actor) {
    // The uploader of a file request learns that their own upload completed (its id is theirs), and nothing more.
    if (!file?.request) throw unauthorized();
    return { session: null, state: { id, length: file.size, offset: file.size, expiresAt: null, fileId: file.id, shareId: null } };
  }
  // An uploader token learns only of what it uploaded itself, as everywhere (mayShareItem): not of the user's other
  // files, nor of the shares they made of them.
  if (!file || file.ownerId !== actor.userId || !mayShareItem(actor, file)) throw notFound('Upload');
  const length = file.size;
  const shareId = (await p.shares.findByItem('file', file.id))?.id ?? null;
  return { session: null, state: { id, length, offset: length, expiresAt: null, fileId: file.id, shareId } };
}

/**
 * Who may go on with an upload: its owner; and, for an upload through a file request, whoever holds its address
 * (its 128 random bits, handed only to the uploader who created it), with or without a credential. Without one,
 * any other upload is unauthorized, as it was before a credential was looked at.
 */
function reaches(actor: Actor | null, session: UploadSession): boolean {
  return session.request ? true : actor !== null && session.ownerId === actor.userId;
}

/** The unfinished upload the caller may end; not_found for anything else (unauthorized without a credential). */
export async function reachableSession(
  p: Pick<Ports, 'uploads'>,
  actor: Actor | null,
  id: string,
): Promise<UploadSession> {
  const session = await p.uploads.findById(id);
  if (session && reaches(actor, session)) return session;
  if (!actor) throw unauthorized();
  throw notFound('Upload');
}

/** Why an append's conditional update missed: the session went (ended, expired) or another append moved it. */
export async function appendMiss(p: Pick<Ports, 'uploads' | 'clock'>, id: string, offset: number): Promise<DomainError> {
  const session = await p.uploads.findById(id);
  if (!session) return notFound('Upload');
  if (!isLive(session, p.clock.now())) return uploadGone();
  if (session.offset === offset && session.parts.length >= MAX_UPLOAD_PARTS) {
    return badRequest(`An upload takes at most ${MAX_UPLOAD_PARTS} appends; send larger chunks`, {
      maxParts: MAX_UPLOAD_PARTS,
    });
  }
  return offsetConflict(session.offset, offset);
}

export const offsetConflict = (current: number, sent: number) =>
  conflict(`Upload-Offset ${sent} does not match the upload's offset ${current}`, { offset: current });
