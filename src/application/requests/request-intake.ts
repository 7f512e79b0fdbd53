import type { Actor, FileRequest, ReceivedFrom, RequestRoom } from '../../domain/index.js';
import {
  DomainError,
  UPLOADER_NAME_MAX,
  UPLOADER_NOTE_MAX,
  badRequest,
  cleanName,
  isDomainError,
  isWellFormed,
  requestGone,
  requestState,
  typeAllowed,
  typeRefused,
} from '../../domain/index.js';
import type { RequestKey, Sender } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { note } from '../activity/note.js';
import { findRequest, requestActor, unlockRequestKey, type RequestAccessDeps } from './request-access.js';

export type IntakeDeps = RequestAccessDeps & Pick<Ports, 'users'>;

/** A file admitted into a request: who uploads (the request's actor), where, and what its record will say. */
export interface Admitted {
  request: FileRequest;
  actor: Actor;
  sender: Sender;
}

/**
 * Everything checked before a byte is taken: the request exists, is unlocked and active, the sender's name (when the
 * request asks for one) and note, the file's type. Nothing is held yet.
 */
export async function admitToRequest(
  p: IntakeDeps,
  key: RequestKey,
  sender: Sender,
  file: { filename: string; mime: string | undefined },
): Promise<Admitted> {
  const request = await findRequest(p, key);
  await unlockRequestKey(p, request, key);
  const state = requestState(request, p.clock.now());
  if (state !== 'active') {
    note(p, { ownerId: request.ownerId, requestId: request.id }, 'gone', key.reader);
    throw requestGone(state);
  }
  const checked = checkSender(request, sender);
  if (!typeAllowed(request.allowedTypes, file.filename, file.mime ?? '')) throw typeRefused(request.allowedTypes);
  return { request, actor: await requestActor(p, request.ownerId, request.id), sender: checked };
}

function checkSender(request: FileRequest, { uploaderName, note }: Sender): Sender {
  const name = uploaderName === null ? '' : cleanName(uploaderName, UPLOADER_NAME_MAX);
  if (request.requireName && name === '') {
    throw badRequest('uploaderName is required: this request asks who sends the files', { field: 'uploaderName' });
  }
  let text = note?.trim() ?? '';
  if (!isWellFormed(text)) throw badRequest('note must be valid Unicode text', { field: 'note' });
  if ([...text].length > UPLOADER_NOTE_MAX) {
    throw badRequest(`note must be at most ${UPLOADER_NOTE_MAX} characters long`, { field: 'note' });
  }
  text = text.replace(/[\p{Cc}\p{Cf}]/gu, (c) => (c === '\n' || c === '\t' ? c : ''));
  return { uploaderName: name || null, note: text || null };
}

/** What the received file's record keeps of how it came. */
export const receivedFrom = (request: FileRequest, sender: Sender, at: Date): ReceivedFrom => ({
  requestId: request.id,
  uploaderName: sender.uploaderName,
  note: sender.note,
  receivedAt: at,
});

/**
 * Takes room of the request in one conditional update, held by the upload's hold `hold` (opened before, naming this
 * instance: if it dies, the sweep that ends the hold gives the room back); when it does not fit, says why: the
 * request is no longer active (gone), or the bytes asked for exceed what it has left (payload_too_large).
 */
export async function takeRequestRoom(
  p: Pick<Ports, 'requests' | 'clock'>,
  id: string,
  room: RequestRoom,
  hold: string,
): Promise<void> {
  if (await p.requests.takeRoom(id, room, p.clock.now(), hold)) return;
  const request = await p.requests.findById(id);
  const state = request ? requestState(request, p.clock.now()) : 'closed';
  if (!request || state !== 'active' || room.files > 0 && request.maxFiles !== null && request.files + room.files > request.maxFiles) {
    throw requestGone(state === 'active' ? 'full' : state);
  }
  const left = request.maxBytes === null ? 0 : Math.max(0, request.maxBytes - request.bytes);
  throw new DomainError('payload_too_large', `This request takes only ${left} more bytes`, { bytesLeft: String(left) });
}

/**
 * Gives back the room the upload's hold `hold` holds, if it still does (at most once, whoever else tries). Best
 * effort: the caller must see its own failure, not this one's.
 */
export async function giveBackRoom(p: Pick<Ports, 'requests'>, hold: string): Promise<void> {
  await Promise.allSettled([p.requests.giveBackHeld(hold)]);
}

/**
 * What an uploader may learn of a refusal: the owner's maxima without their figures (`limit` only), and a folder
 * deleted under the request as the request taking no more files.
 */
export function uploaderFacing(err: unknown): unknown {
  if (!isDomainError(err)) return err;
  if (err.code === 'limit_reached') {
    const limit = err.details['limit'];
    return new DomainError('limit_reached', 'The owner of this request has no room for this file', { limit });
  }
  if (err.code === 'not_found' && err.message.startsWith('Folder')) {
    return new DomainError('gone', 'This request takes no more files: its folder is gone', { state: 'closed' });
  }
  return err;
}
