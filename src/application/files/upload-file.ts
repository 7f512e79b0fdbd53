import type { Actor, LimitKind, StoredFile } from '../../domain/index.js';
import {
  DomainError,
  assertMay,
  isTextual,
  badRequest,
  cleanName,
  normalizeMime,
  notFound,
  requireName,
  uploaderTokenOf,
} from '../../domain/index.js';
import type { Core, ShareOptions } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { removeFiles } from '../remove-files.js';
import { limitsOf, refusal } from '../usage-limits.js';
import { owned } from '../owned.js';
import { fileView } from '../views.js';
import { shareItem, type ShareDeps } from '../shares/create-share.js';
import { shareLimits } from '../shares/share-limits.js';
import { StorageMeter } from './storage-meter.js';
import { Utf8Check } from './utf8-check.js';

type Port = Core['uploadFile'];
type Deps = Pick<Ports, 'files' | 'folders' | 'blobs' | 'users' | 'usage' | 'settings' | 'ids' | 'clock' | 'shares'> &
  ShareDeps;

/** The display name of an upload whose filename cleans down to nothing (and no name was given). */
export const UNTITLED_FILE = 'untitled';

/** Seconds a client refused for running too many uploads is told to wait (Retry-After). */
export const UPLOADS_RETRY_AFTER = 5;

const tooManyUploads = (max: number) =>
  new DomainError('rate_limited', `At most ${max} uploads of one user may run at once; retry when one has finished`, {
    retryAfter: UPLOADS_RETRY_AFTER,
  });

/**
 * Streams an upload into the blob store, metering it against the upload cap and the storage limit as bytes arrive.
 * Whatever fails (client abort, limit, store, metadata), neither bytes nor counts remain. Every count it reserves is
 * held under the file's id until the record exists, so a crash midway leaves a hold the sweep gives back.
 */
export class UploadFile implements Port {
  constructor(private readonly p: Deps) {}

  async execute({ actor, folderId, name, filename, mime, content, deliver, share }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'file.upload');
    // Options of the share asked for are judged before any byte is taken, so a bad one costs the client nothing.
    if (share) shareLimits(share, this.p.clock.now(), true);
    if (folderId !== null) owned(await this.p.folders.findById(folderId), actor.userId, 'Folder');
    // An explicit name must be usable; a filename is whatever the client's disk had, so it only falls back.
    const displayName = name !== null ? requireName(name) : cleanName(filename) || UNTITLED_FILE;
    const limits = await limitsOf(this.p, actor.userId);
    const id = this.p.ids.newId();
    const hold = { id, at: this.p.clock.now() };
    // The hold is the upload's slot: the database admits it only while the user has fewer open, on any instance.
    // It opens with the file counted, in one step; only when that refuses do the two steps tell why.
    const slots = this.p.settings.maxConcurrentUploads;
    const counted = { kind: 'files' as const, amount: 1, max: limits.files };
    if (!(await this.p.usage.openHoldReserving(actor.userId, hold, slots, counted))) {
      if (!(await this.p.usage.openHold(actor.userId, hold, slots))) throw tooManyUploads(slots);
      if (!(await this.p.usage.reserve(actor.userId, 'files', 1, limits.files, hold))) {
        await this.undo(actor.userId, id, null);
        throw await refusal(this.p, actor.userId, 'files', limits.files);
      }
    }

    const meter = new StorageMeter(this.p, actor.userId, limits.storage, this.p.settings.maxUploadBytes, id);
    const fileMime = normalizeMime(mime);
    // Text is checked as it streams by, so it can be served with its charset; other bytes go through untouched.
    const utf8 = isTextual(fileMime) ? new Utf8Check() : null;
    let blobKey: string | null = null;
    let file: StoredFile;
    try {
      const blob = await this.p.blobs.write(meter.metered(utf8 ? utf8.watch(content) : content));
      blobKey = blob.key;
      meter.settle(blob.size);
      const now = this.p.clock.now();
      file = {
        id,
        ownerId: actor.userId,
        folderId,
        name: displayName,
        mime: fileMime,
        size: blob.size,
        blobKey: blob.key,
        uploaderTokenId: uploaderTokenOf(actor),
        charset: utf8?.end() ? 'utf-8' : null,
        createdAt: now,
        updatedAt: now,
      };
      await this.p.files.insert(file);
    } catch (err) {
      await this.undo(actor.userId, id, blobKey);
      throw err;
    }
    if (folderId !== null) await this.assertLanded(file, folderId);
    await this.settle(file);
    const view = fileView(file, share ? await this.shareOf(file, actor, share) : null);
    if (deliver && !(await deliver(view).catch(() => false))) {
      // Nobody learnt of this file, so nobody can use or delete it: it goes as if the upload had been aborted.
      await removeFiles(this.p, [file]);
      throw badRequest('The client went away before the upload could be answered');
    }
    return view;
  }

  /**
   * The folder was checked before the bytes came, maybe long ago: a delete of it may have marked it since. Then
   * the file takes itself back. If this call deletes the record, its bytes and held counts go too; if the folder's
   * delete got to the record first, that delete released the counts, so the hold is only forgotten.
   */
  private async assertLanded(file: StoredFile, folderId: string): Promise<void> {
    if (await this.p.folders.findById(folderId)) return;
    if (await this.p.files.delete(file.id)) {
      await this.undo(file.ownerId, file.id, file.blobKey);
    } else {
      await Promise.allSettled([this.p.usage.settleHold(file.ownerId, file.id)]);
    }
    throw notFound('Folder');
  }

  /** The share the upload asked for, made as any share is; if it cannot be made, the upload goes too. */
  private async shareOf(file: StoredFile, actor: Actor, options: ShareOptions): Promise<string> {
    try {
      return (await shareItem(this.p, actor, 'file', file.id, options)).id;
    } catch (err) {
      await removeFiles(this.p, [file]);
      throw err;
    }
  }

  /**
   * The counts now belong to the record. If settling fails the file stands and the sweep settles the hold later. If
   * the hold no longer holds the whole upload, a sweep took it for crashed (no bytes for longer than the grace
   * period) and gave counts back: the file would then exceed what is counted, so it goes.
   */
  private async settle(file: StoredFile): Promise<void> {
    const held = await this.p.usage.settleHold(file.ownerId, file.id).catch(() => undefined);
    if (held === undefined || (held?.files === 1 && (held.storage ?? 0) === file.size)) return;
    const deleted = await this.p.files.delete(file.id);
    await Promise.allSettled([this.p.blobs.delete(file.blobKey)]);
    if (deleted && held) {
      for (const [kind, amount] of Object.entries(held) as [LimitKind, number][]) {
        await this.p.usage.release(file.ownerId, kind, amount);
      }
    }
    throw new Error('The upload stalled past the grace period and its reservations were given back');
  }

  /** Best effort, in the usual order (bytes, then counts); the caller must see the original failure, not ours. */
  private async undo(userId: string, holdId: string, blobKey: string | null): Promise<void> {
    if (blobKey !== null) await Promise.allSettled([this.p.blobs.delete(blobKey)]);
    await Promise.allSettled([this.p.usage.releaseHold(userId, holdId)]);
  }
}
