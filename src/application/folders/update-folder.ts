import { assertDepthAllowed, assertMay, assertNotIntoOwnSubtree, notFound, requireName } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { FolderPatch, Ports } from '../ports/index.js';
import { KeyedLock } from '../keyed-lock.js';
import { owned } from '../usage-limits.js';
import { folderView } from '../views.js';
import { SUBTREE_SCAN_LIMIT, subtreeHeight } from './subtree.js';

type Port = Core['updateFolder'];

/**
 * Renames a folder and/or moves it, with its subtree, under another of the owner's folders (null: the root).
 * One owner's moves run one at a time: two crossing moves (A under B while B goes under A) would each pass the
 * subtree check and together make a cycle.
 */
export class UpdateFolder implements Port {
  private readonly moves = new KeyedLock();

  constructor(private readonly p: Pick<Ports, 'folders' | 'shares' | 'clock'>) {}

  async execute(input: Parameters<Port['execute']>[0]) {
    assertMay(input.actor, 'folder.update');
    if (input.parentId === undefined) return this.apply(input);
    return this.moves.run(input.actor.userId, () => this.apply(input));
  }

  private async apply({ actor, id, name, parentId }: Parameters<Port['execute']>[0]) {
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
