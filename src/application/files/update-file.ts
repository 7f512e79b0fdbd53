import { assertMay, notFound, requireName } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { FilePatch, Ports } from '../ports/index.js';
import { owned } from '../usage-limits.js';
import { fileViewOf } from './file-views.js';

type Port = Core['updateFile'];

/** Renames a file and/or moves it to another of the owner's folders (null: the root). */
export class UpdateFile implements Port {
  constructor(private readonly p: Pick<Ports, 'files' | 'folders' | 'shares' | 'clock'>) {}

  async execute({ actor, id, name, folderId }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'file.update');
    owned(await this.p.files.findById(id), actor.userId, 'File');
    const patch: FilePatch = { updatedAt: this.p.clock.now() };
    if (name !== undefined) patch.name = requireName(name);
    if (folderId !== undefined) {
      if (folderId !== null) owned(await this.p.folders.findById(folderId), actor.userId, 'Folder');
      patch.folderId = folderId;
    }
    const updated = await this.p.files.update(id, patch);
    if (!updated) throw notFound('File');
    return fileViewOf(this.p, updated);
  }
}
