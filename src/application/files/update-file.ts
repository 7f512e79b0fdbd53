import type { StoredFile } from '../../domain/index.js';
import { assertMay, notFound, requireName } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { FilePatch, Ports } from '../ports/index.js';
import { removeFiles } from './remove-files.js';
import { owned } from '../owned.js';
import { fileViewOf } from './file-views.js';

type Port = Core['updateFile'];
type Deps = Pick<Ports, 'files' | 'folders' | 'shares' | 'collections' | 'blobs' | 'usage' | 'clock' | 'ids' | 'instance' | 'activityLog' | 'mailNotices'>;

/** Renames a file and/or moves it to another of the owner's folders (null: the root). */
export class UpdateFile implements Port {
  constructor(private readonly p: Deps) {}

  async execute({ actor, id, name, folderId }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'file.update');
    const file = owned(await this.p.files.findById(id), actor.userId, 'File');
    const patch: FilePatch = { updatedAt: this.p.clock.now() };
    if (name !== undefined) patch.name = requireName(name);
    if (folderId !== undefined) {
      if (folderId !== null) owned(await this.p.folders.findById(folderId), actor.userId, 'Folder');
      patch.folderId = folderId;
    }
    const updated = await this.p.files.update(id, patch);
    if (!updated) throw notFound('File');
    if (folderId != null && folderId !== file.folderId) await this.assertLanded(file, folderId);
    return fileViewOf(this.p, updated);
  }

  /**
   * A delete of the new folder may have marked it since it was checked, and its listing of files may be past. Then
   * the file goes back as it was (unless that delete took it already); if its old folder is being deleted as well,
   * it is deleted with it, as it would have been had it never moved.
   */
  private async assertLanded(before: StoredFile, folderId: string): Promise<void> {
    if (await this.p.folders.findById(folderId)) return;
    const { name, folderId: from, updatedAt } = before;
    const back = await this.p.files.update(before.id, { name, folderId: from, updatedAt, whileIn: folderId });
    if (back && from !== null && !(await this.p.folders.findById(from))) await removeFiles(this.p, [back]);
    throw notFound('Folder');
  }
}
