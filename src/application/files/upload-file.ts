import type { ReceivedFrom, RequestRoom, StoredFile } from '../../domain/index.js';
import { DEFAULT_MIME, encryptedName, isTextual, normalizeMime, uploaderTokenOf } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { limitsOf, refusal } from '../usage/usage-limits.js';
import { landFile, undoUpload, type LandingDeps } from './land-file.js';
import { StorageMeter } from './storage-meter.js';
import { admitUpload, tooManyUploads } from './upload-request.js';
import { Utf8Check } from './utf8-check.js';

type Port = Core['uploadFile'];

/**
 * An upload through a file request: its own byte cap, its room in the request (taken under the upload's hold once it
 * stands, one file then the bytes batch by batch, and given back before the hold goes), and how it came.
 */
export interface Intake {
  maxFileBytes: number | null;
  /** Takes room of the request, held by the upload's hold `hold`; throws to refuse. */
  take: (hold: string, room: RequestRoom) => Promise<void>;
  /** Gives back what the hold holds of the request, if it still does. Never throws. */
  giveBack: (hold: string) => Promise<void>;
  from: ReceivedFrom;
}
type Deps = Pick<Ports, 'users' | 'settings' | 'ids' | 'clock' | 'instance'> & LandingDeps;

/**
 * Streams an upload into the blob store, metering it against the upload cap and the storage limit as bytes arrive.
 * Whatever fails (client abort, limit, store, metadata), neither bytes nor counts remain. Every count it reserves is
 * held under the file's id, naming this instance, until the record exists: if the instance dies midway, the hold is
 * given back by another instance's sweep once its lease has run out.
 */
export class UploadFile implements Port {
  constructor(private readonly p: Deps) {}

  execute(input: Parameters<Port['execute']>[0]) {
    return this.receive(input, null);
  }

  async receive(
    { actor, folderId, name, filename, mime, content, deliver, share, encryptedMetadata = null }: Parameters<Port['execute']>[0],
    intake: Intake | null,
  ) {
    // Judged before any byte is taken, so a bad option or folder costs the client nothing.
    const displayName = await admitUpload(this.p, actor, { folderId, name, filename, share, encryptedMetadata });
    const limits = limitsOf(this.p, actor);
    const id = this.p.ids.newId();
    // The blob's key is on the hold from its first update on, so bytes that reach the store before their record (this
    // instance dying in between) are known from the database and removed by whoever finishes its work.
    const key = this.p.blobs.newKey();
    const hold = { id, at: this.p.clock.now(), by: this.p.instance.id(), blob: key };
    // The hold is the upload's slot: the database admits it only while the user has fewer open, on any instance.
    // It opens with the file counted, in one step; only when that refuses do the two steps tell why.
    const slots = this.p.settings.maxConcurrentUploads;
    const counted = { kind: 'files' as const, amount: 1, max: limits.files };
    if (!(await this.p.usage.openHoldReserving(actor.userId, hold, slots, counted))) {
      if (!(await this.p.usage.openHold(actor.userId, hold, slots))) throw tooManyUploads(slots);
      if (!(await this.p.usage.reserve(actor.userId, 'files', 1, limits.files, hold))) {
        await undoUpload(this.p, actor.userId, id, null);
        throw await refusal(this.p, actor.userId, 'files', limits.files);
      }
    }
    // The request's room goes back before the hold does: once the hold is gone, nothing would know of the room.
    const undo = async (blobKey: string | null) => {
      await intake?.giveBack(id);
      await undoUpload(this.p, actor.userId, id, blobKey);
    };
    try {
      await intake?.take(id, { files: 1, bytes: 0 });
    } catch (err) {
      await undo(null);
      throw err;
    }

    const cap = Math.min(this.p.settings.maxUploadBytes, intake?.maxFileBytes ?? Infinity);
    const takeBytes = intake ? (bytes: number) => intake.take(id, { files: 0, bytes }) : undefined;
    const meter = new StorageMeter(this.p, actor.userId, limits.storage, cap, id, undefined, takeBytes);
    const fileMime = encryptedMetadata ? DEFAULT_MIME : normalizeMime(mime);
    // Text is checked as it streams by, so it can be served with its charset; other bytes go through untouched.
    const utf8 = isTextual(fileMime) ? new Utf8Check() : null;
    let blob: { key: string; size: number };
    try {
      blob = await this.p.blobs.write(meter.metered(utf8 ? utf8.watch(content) : content), { key });
    } catch (err) {
      await undo(null);
      throw err;
    }
    try {
      meter.settle(blob.size);
    } catch (err) {
      await undo(blob.key);
      throw err;
    }
    const now = this.p.clock.now();
    const file: StoredFile = {
      id,
      ownerId: actor.userId,
      folderId,
      name: encryptedMetadata ? encryptedName(id) : displayName,
      mime: fileMime,
      size: blob.size,
      blobKey: blob.key,
      uploaderTokenId: uploaderTokenOf(actor),
      charset: utf8?.end() ? 'utf-8' : null,
      ...(intake ? { request: { ...intake.from, receivedAt: now } } : {}),
      ...(encryptedMetadata ? { encryptedMetadata } : {}),
      createdAt: now,
      updatedAt: now,
    };
    return landFile(this.p, { actor, file, share: share ?? null, deliver });
  }
}
