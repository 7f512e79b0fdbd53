import type { Actor } from '../../domain/index.js';
import { DomainError, assertMay, isDomainError, requestGone, requestState } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { StorageMeter } from '../files/storage-meter.js';
import { tooManyUploads } from '../files/upload-request.js';
import type { Ports, UploadSession } from '../ports/index.js';
import { limitsOf } from '../usage/usage-limits.js';
import { finishUpload, type FinishDeps } from './finish-upload.js';
import { releaseSession } from './release-session.js';
import { requestActor } from '../requests/request-access.js';
import { appendMiss, offsetConflict, ownedUpload, stateOf } from './upload-state.js';

type Port = Core['appendUpload'];
type Deps = Pick<Ports, 'uploads' | 'users' | 'usage' | 'settings' | 'ids' | 'clock' | 'instance' | 'requests'> & FinishDeps;

/**
 * Adds bytes at the offset the client names. Each append writes its bytes as a blob of its own, metered against the
 * storage limit as they arrive under a hold of its own (which is also one of the user's upload slots), then commits
 * the part with one conditional update on the session (`offset` as expected). Of two appends at one offset, on any
 * instances, exactly one lands; the other's bytes and counts go, so stored bytes are never mixed up. The committed
 * bytes then move to the upload's hold in one step. The append that completes the upload makes its file.
 */
export class AppendUpload implements Port {
  constructor(private readonly p: Deps) {}

  async execute({ actor: caller, id, offset, content }: Parameters<Port['execute']>[0]) {
    if (caller) assertMay(caller, 'file.upload');
    const { session, state } = await ownedUpload(this.p, caller, id);
    if (state.offset !== offset) throw offsetConflict(state.offset, offset);
    if (!session) return drained(content, state);
    const actor = session.request ? await this.uploader(session) : caller!;
    if (session.offset === session.length) return this.complete(session, actor, content);

    const holdId = this.p.ids.newId();
    const slots = this.p.settings.maxConcurrentUploads;
    const part = this.p.blobs.newKey();
    const hold = { id: holdId, at: this.p.clock.now(), by: this.p.instance.id(), blob: part };
    if (!(await this.p.usage.openHold(actor.userId, hold, slots))) {
      throw tooManyUploads(slots);
    }
    let key: string | null = null;
    try {
      const limits = limitsOf(this.p, actor);
      const room = session.length - offset;
      const meter = new StorageMeter(this.p, actor.userId, limits.storage, room, holdId);
      // Not flushed here: a tus client sends its next chunk only after this answer, so the parts are made durable
      // together when the upload completes, and a part a crash shortened is caught by the size check on resume.
      const blob = await this.p.blobs.write(meter.metered(content), { durable: false, key: part });
      key = blob.key;
      meter.settle(blob.size);
      if (blob.size === 0) throw nothingSent;
      const now = this.p.clock.now();
      const expiresAt = new Date(now.getTime() + this.p.settings.resumableIdleMs);
      const appended = await this.p.uploads.append(id, offset, { key: blob.key, size: blob.size }, expiresAt, now);
      if (!appended) throw await appendMiss(this.p, id, offset);
      key = null;
      // Missed only when the upload ended meanwhile (its ending gave back its own hold): these bytes go back too.
      if (!(await this.p.usage.moveHeld(actor.userId, holdId, { id, at: now }, 'storage', blob.size))) {
        await Promise.allSettled([this.p.usage.releaseHold(actor.userId, holdId)]);
      }
      return appended.offset === appended.length ? finishUpload(this.p, actor, appended) : stateOf(appended);
    } catch (err) {
      if (key !== null) await Promise.allSettled([this.p.blobs.delete(key)]);
      await Promise.allSettled([this.p.usage.releaseHold(actor.userId, holdId)]);
      if (err === nothingSent) return stateOf(session);
      if (isDomainError(err) && err.code === 'limit_reached') await this.end(id);
      throw isDomainError(err) && err.code === 'payload_too_large' ? pastTheEnd(session.length) : err;
    }
  }

  /**
   * An upload through a file request goes on as the request's uploader (the owner's counts and maxima), only while
   * the request still takes files: closed, expired or deleted meanwhile, the upload ends and gives everything back.
   */
  private async uploader(session: UploadSession) {
    const request = await this.p.requests.findById(session.request!.id);
    const state = request ? requestState(request, this.p.clock.now()) : 'closed';
    if (state === 'closed' || state === 'expired') {
      await this.end(session.id);
      throw requestGone(state);
    }
    return requestActor(this.p, session.ownerId, session.request!.id);
  }

  /**
   * An upload that meets the storage limit ends, as a single-request one does: resuming it could only meet the limit
   * again, and its held file count and bytes would wait for its expiry.
   */
  private async end(id: string): Promise<void> {
    const taken = await this.p.uploads.take(id).catch(() => null);
    if (taken) await Promise.allSettled([releaseSession(this.p, taken)]);
  }

  /** Every byte is there but the file was not made (its append failed at the end): an empty append makes it. */
  private async complete(session: UploadSession, actor: Actor, content: AsyncIterable<Uint8Array>) {
    await drained(content, stateOf(session));
    return finishUpload(this.p, actor, session);
  }
}

const nothingSent = new Error('the append carried no bytes');

const pastTheEnd = (length: number) =>
  new DomainError('payload_too_large', `The bytes sent go past the upload's length of ${length} bytes`, { length });

/** An upload that is already whole takes no more bytes: an empty append at its end only confirms it. */
async function drained<T>(content: AsyncIterable<Uint8Array>, state: T): Promise<T> {
  for await (const chunk of content) {
    if (chunk.byteLength > 0) throw new DomainError('payload_too_large', 'The upload is complete: it takes no more bytes');
  }
  return state;
}
