import type { StoredFile } from '../../domain/index.js';
import { assertMay, cleanName, limitReached, normalizeMime, requireName } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { limitsOf, owned } from '../usage-limits.js';
import { fileView } from '../views.js';
import { StorageMeter } from './storage-meter.js';

type Port = Core['uploadFile'];
type Deps = Pick<Ports, 'files' | 'folders' | 'blobs' | 'users' | 'usage' | 'settings' | 'ids' | 'clock'>;

/** The display name of an upload whose filename cleans down to nothing (and no name was given). */
export const UNTITLED_FILE = 'untitled';

/**
 * Streams an upload into the blob store, metering it against the upload cap and the storage limit as bytes arrive.
 * Whatever fails (client abort, limit, store, metadata), neither bytes nor counts remain.
 */
export class UploadFile implements Port {
  constructor(private readonly p: Deps) {}

  async execute({ actor, folderId, name, filename, mime, content }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'file.upload');
    if (folderId !== null) owned(await this.p.folders.findById(folderId), actor.userId, 'Folder');
    // An explicit name must be usable; a filename is whatever the client's disk had, so it only falls back.
    const displayName = name !== null ? requireName(name) : cleanName(filename) || UNTITLED_FILE;
    const limits = await limitsOf(this.p, actor.userId);
    if (!(await this.p.usage.reserve(actor.userId, 'files', 1, limits.files))) throw limitReached('files');

    const meter = new StorageMeter(this.p, actor.userId, limits.storage, this.p.settings.maxUploadBytes);
    let blobKey: string | null = null;
    try {
      const blob = await this.p.blobs.write(meter.metered(content));
      blobKey = blob.key;
      meter.settle(blob.size);
      const now = this.p.clock.now();
      const file: StoredFile = {
        id: this.p.ids.newId(),
        ownerId: actor.userId,
        folderId,
        name: displayName,
        mime: normalizeMime(mime),
        size: blob.size,
        blobKey: blob.key,
        createdAt: now,
        updatedAt: now,
      };
      await this.p.files.insert(file);
      return fileView(file, null);
    } catch (err) {
      await this.undo(actor.userId, blobKey, meter);
      throw err;
    }
  }

  /** Best effort, in the usual order (bytes, then counts); the caller must see the original failure, not ours. */
  private async undo(userId: string, blobKey: string | null, meter: StorageMeter): Promise<void> {
    if (blobKey !== null) await Promise.allSettled([this.p.blobs.delete(blobKey)]);
    await Promise.allSettled([meter.releaseAll(), this.p.usage.release(userId, 'files', 1)]);
  }
}
