import { assertMay, conflict, isTextual, normalizeMime, type StoredFile } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { owned } from '../owned.js';
import type { Ports } from '../ports/index.js';
import { limitsOf } from '../usage/usage-limits.js';
import { fileViewOf } from './file-views.js';
import { undoUpload } from './land-file.js';
import { StorageMeter } from './storage-meter.js';
import { tooManyUploads } from './upload-request.js';
import { Utf8Check } from './utf8-check.js';

type Port = Core['replaceFileContent'];
type Deps = Pick<Ports, 'files' | 'blobs' | 'usage' | 'shares' | 'settings' | 'ids' | 'clock' | 'instance'>;

/**
 * New bytes for an existing file, which keeps its id, name, place, share and collections. The bytes stream into a new
 * blob under a hold of their own, metered as any upload's (upload cap, storage maximum, upload slots); one conditional
 * update then points the file at them, only while it still points at the bytes it had when this began (else
 * conflict, and the new bytes go). The old bytes and their count go afterwards, through the same hold: fixed to hold
 * them once the swap landed, then released. The hold names the work (task `replace`: the file and the bytes it had),
 * so a crash anywhere is ended by the sweep of gone instances from the file: swap not landed, the new bytes and their
 * count go; landed, the old ones (recoverReplace).
 */
export class ReplaceFileContent implements Port {
  constructor(private readonly p: Deps) {}

  async execute({ actor, id, mime, content }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'file.upload');
    assertMay(actor, 'file.update');
    const before = owned(await this.p.files.findById(id), actor.userId, 'File');
    const limits = limitsOf(this.p, actor);
    const holdId = this.p.ids.newId();
    const key = this.p.blobs.newKey();
    const task = { kind: 'replace' as const, fileId: id, blobKey: before.blobKey, size: before.size };
    const hold = { id: holdId, at: this.p.clock.now(), by: this.p.instance.id(), blob: key, task };
    if (!(await this.p.usage.openHold(actor.userId, hold, this.p.settings.maxConcurrentUploads))) {
      throw tooManyUploads(this.p.settings.maxConcurrentUploads);
    }
    const meter = new StorageMeter(this.p, actor.userId, limits.storage, this.p.settings.maxUploadBytes, holdId);
    const fileMime = mime === undefined ? before.mime : normalizeMime(mime);
    const utf8 = isTextual(fileMime) ? new Utf8Check() : null;
    let blob: { key: string; size: number };
    try {
      blob = await this.p.blobs.write(meter.metered(utf8 ? utf8.watch(content) : content), { key });
      meter.settle(blob.size);
    } catch (err) {
      await undoUpload(this.p, actor.userId, holdId, key);
      throw err;
    }
    // Strictly later than before, even within one millisecond: clients tell new bytes by when the file changed.
    const now = new Date(Math.max(this.p.clock.now().getTime(), before.updatedAt.getTime() + 1));
    const charset = utf8?.end() ? 'utf-8' : null;
    const after = await this.p.files
      .replaceContent(id, before.blobKey, { blobKey: blob.key, size: blob.size, mime: fileMime, charset, updatedAt: now })
      .catch(async (err: unknown) => {
        await undoUpload(this.p, actor.userId, holdId, blob.key);
        throw err;
      });
    if (!after) {
      await undoUpload(this.p, actor.userId, holdId, blob.key);
      throw conflict('The file changed or went meanwhile');
    }
    // The new bytes' count now belongs to the record: the hold holds the old bytes instead, which go, then their count
    // (as any removal orders it).
    if (!(await this.p.usage.fixHeld(actor.userId, holdId, { storage: before.size }, [before.blobKey]))) {
      await this.outlived(actor.userId, holdId, after, before);
      return fileViewOf(this.p, after);
    }
    await Promise.allSettled([this.p.blobs.delete(before.blobKey)]);
    await this.p.usage.releaseHold(actor.userId, holdId);
    return fileViewOf(this.p, after);
  }

  /**
   * The hold is gone: this instance was taken for dead (its lease ran out while it stalled) and the sweep ended the
   * replace. Had it found the swap landed, it gave the old bytes back, as this call would have. Had it found it not
   * landed, it gave the new bytes back (marked so) and deleted them: the file goes back to its old bytes, still there.
   */
  private async outlived(userId: string, holdId: string, after: StoredFile, before: StoredFile): Promise<void> {
    if (!(await this.p.usage.wasGivenBack(userId, holdId))) return;
    const { blobKey, size, mime, charset } = before;
    const updatedAt = new Date(after.updatedAt.getTime() + 1);
    await this.p.files.replaceContent(after.id, after.blobKey, { blobKey, size, mime, charset, updatedAt });
    throw new Error('The replace outlived its instance’s lease and its new bytes were given back');
  }
}

