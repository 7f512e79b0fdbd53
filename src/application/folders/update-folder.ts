import { assertDepthAllowed, assertMay, assertNotIntoOwnSubtree, notFound, requireName } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { FolderPatch, Ports } from '../ports/index.js';
import { owned } from '../usage-limits.js';
import { folderView } from '../views.js';
import { SUBTREE_SCAN_LIMIT, subtreeHeight } from './subtree.js';

type Port = Core['updateFolder'];

/** Renames a folder and/or moves it, with its subtree, under another of the owner's folders (null: the root). */
export class UpdateFolder implements Port {
  constructor(private readonly p: Pick<Ports, 'folders' | 'shares' | 'clock'>) {}

  async execute({ actor, id, name, parentId }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'folder.update');
    const folder = owned(await this.p.folders.findById(id), actor.userId, 'Folder');
    const patch: FolderPatch = { updatedAt: this.p.clock.now() };
    if (name !== undefined) patch.name = requireName(name);
    if (parentId !== undefined) {
      if (parentId !== null && parentId !== folder.parentId) await this.assertCanMoveUnder(actor.userId, id, parentId);
      patch.parentId = parentId;
    }
    const updated = await this.p.folders.update(id, patch);
    if (!updated) throw notFound('Folder');
    const share = await this.p.shares.findByItem('folder', id);
    return folderView(updated, share?.id ?? null);
  }

  /** The new parent must be the owner's, outside the folder's own subtree, and leave the deepest level in bounds. */
  private async assertCanMoveUnder(ownerId: string, id: string, parentId: string): Promise<void> {
    owned(await this.p.folders.findById(parentId), ownerId, 'Parent folder');
    const chain = await this.p.folders.chain(parentId);
    assertNotIntoOwnSubtree(id, chain);
    const descendants = await this.p.folders.listSubtree(ownerId, id, SUBTREE_SCAN_LIMIT);
    assertDepthAllowed(chain.length - 1, subtreeHeight(id, descendants));
  }
}
