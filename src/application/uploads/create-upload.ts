import { DEFAULT_MIME, DomainError, badRequest, encryptedName, limitReached, normalizeMime, uploaderTokenOf } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { admitUpload } from '../files/upload-request.js';
import type { Ports, UploadSession } from '../ports/index.js';
import { giveBackRoom, takeRequestRoom } from '../requests/request-intake.js';
import { sharePasswordHash } from '../shares/share-password.js';
import { limitsOf, refusal } from '../usage/usage-limits.js';
import { finishUpload, type FinishDeps } from './finish-upload.js';
import { stateOf } from './upload-state.js';

type Port = Core['createUpload'];
type Deps = Pick<Ports, 'uploads' | 'users' | 'usage' | 'settings' | 'ids' | 'clock' | 'hasher' | 'instance'> &
  FinishDeps;

/**
 * Starts a resumable upload: everything the single-request upload checks before its first byte, plus its size up
 * front against the upload cap and the room left (a hint only: bytes are reserved as they arrive, as for every
 * upload, so the maxima stay exact with any mix of uploads). The file count is reserved now, under the upload's hold.
 */
export class CreateUpload implements Port {
  constructor(private readonly p: Deps) {}

  execute(input: Parameters<Port['execute']>[0]) {
    return this.start(input, null);
  }

  /**
   * `request`: an upload through a file request. Its room, one file of the whole length, is taken under the upload's
   * hold once that stands, and given back before the hold goes: by this call if the session cannot be stored, by the
   * session when it ends without a file, by the sweep of gone instances when this instance dies in between.
   */
  async start(
    { actor, length, folderId, name, filename, mime, share, encryptedMetadata = null }: Parameters<Port['execute']>[0],
    request: UploadSession['request'],
  ) {
    if (!Number.isSafeInteger(length) || length < 0) throw badRequest('Upload-Length must be a whole number of bytes');
    const displayName = await admitUpload(this.p, actor, { folderId, name, filename, share, encryptedMetadata });
    const maxBytes = this.p.settings.maxUploadBytes;
    if (length > maxBytes) {
      throw new DomainError('payload_too_large', `A file holds at most ${maxBytes} bytes`, { maxBytes });
    }
    const limits = limitsOf(this.p, actor);
    const used = (await this.p.usage.get(actor.userId)).storage;
    if (length > limits.storage - used) throw limitReached('storage', limits.storage, used);
    // Hashed now, so no password waits in the database until the upload completes.
    const pending = share && {
      passwordHash: await sharePasswordHash(this.p, share.password),
      expiresAt: share.expiresAt,
      maxViews: share.maxViews,
      maxDownloads: share.maxDownloads,
    };
    const now = this.p.clock.now();
    const id = this.p.ids.newId();
    const session: UploadSession = {
      id,
      ownerId: actor.userId,
      uploaderTokenId: uploaderTokenOf(actor),
      length,
      offset: 0,
      parts: [],
      folderId,
      // An encrypted upload's name and type are in its sealed metadata; what the client's disk called it is not kept.
      name: encryptedMetadata ? encryptedName(id) : displayName,
      filename: encryptedMetadata ? '' : filename,
      mime: encryptedMetadata ? DEFAULT_MIME : normalizeMime(mime),
      share: pending ? withoutUndefined(pending) : null,
      ...(request ? { request } : {}),
      ...(encryptedMetadata ? { encryptedMetadata } : {}),
      createdAt: now,
      expiresAt: new Date(now.getTime() + this.p.settings.resumableIdleMs),
    };
    const hold = { id: session.id, at: now, by: this.p.instance.id() };
    if (!(await this.p.usage.reserve(actor.userId, 'files', 1, limits.files, hold))) {
      throw await refusal(this.p, actor.userId, 'files', limits.files);
    }
    try {
      if (request) await takeRequestRoom(this.p, request.id, { files: 1, bytes: length }, session.id);
      await this.p.uploads.insert(session);
    } catch (err) {
      if (request) await giveBackRoom(this.p, session.id);
      await Promise.allSettled([this.p.usage.releaseHold(actor.userId, session.id)]);
      throw err;
    }
    if (length === 0) return finishUpload(this.p, actor, session);
    return stateOf(session);
  }
}

/** MongoDB stores an undefined field as null, which would read back as "clear" rather than "absent". */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
