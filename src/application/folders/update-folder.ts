import type { Folder } from '../../domain/index.js';
import { assertDepthAllowed, assertMay, assertNotIntoOwnSubtree, notFound, requireName } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { FolderPatch, Ports } from '../ports/index.js';
import { owned } from '../owned.js';
import { folderView } from '../views.js';
import { withMoveLease, type MoveLease } from './move-lease.js';
import { deleteTree } from './remove-tree.js';
import { SUBTREE_SCAN_LIMIT, subtreeHeight } from './subtree.js';

type Port = Core['updateFolder'];
type Input = Parameters<Port['execute']>[0];
type Deps = Pick<
  Ports,
  'folders' | 'files' | 'shares' | 'collections' | 'blobs' | 'usage' | 'clock' | 'ids' | 'instance' | 'activityLog' | 'mailNotices'
>;

/**
 * Renames a folder and/or moves it, with its subtree, under another of the owner's folders (null: the root).
 * Two crossing moves (A under B while B goes under A) would each pass the subtree check and together make a
 * cycle, so every move runs under the owner's move lease, which lives in the database: one move at a time per owner,
 * across all instances. A rename alone cannot make a cycle and takes no lease.
 */
export class UpdateFolder implements Port {
  constructor(private readonly p: Deps) {}

  async execute(input: Input) {
    assertMay(input.actor, 'folder.update');
    if (input.parentId === undefined) return this.apply(input, null);
    return withMoveLease(this.p, input.actor.userId, (lease) => this.apply(input, lease));
  }

  private async apply({ actor, id, name, parentId }: Input, lease: MoveLease | null) {
    const folder = owned(await this.p.folders.findById(id), actor.userId, 'Folder');
    const patch: FolderPatch = { updatedAt: this.p.clock.now() };
    if (name !== undefined) patch.name = requireName(name);
    const target = parentId !== undefined && parentId !== folder.parentId ? parentId : undefined;
    if (target !== undefined) {
      if (target !== null) await this.assertCanMoveUnder(actor.userId, id, target);
      patch.parentId = target;
      // Only from where it was checked: should the lease ever be lost, a move cannot undo a newer one unseen.
      patch.whileIn = folder.parentId;
    }
    lease?.assertTimeLeft();
    const updated = await this.p.folders.update(id, patch);
    if (!updated) throw notFound('Folder');
    if (target != null) await this.assertLanded(folder, target);
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

  /**
   * A delete of the new parent may have marked it since it was checked, and its marking of children may be past.
   * Then the folder goes back as it was (the lease keeps every other move out meanwhile, so going back cannot make a
   * cycle), unless that delete marked it already; if its old parent is being deleted as well, it is deleted with it,
   * as it would have been had it never moved.
   */
  private async assertLanded(before: Folder, parentId: string): Promise<void> {
    if (await this.p.folders.findById(parentId)) return;
    const { name, parentId: from, updatedAt } = before;
    const back = await this.p.folders.update(before.id, { name, parentId: from, updatedAt, whileIn: parentId });
    if (back && from !== null && !(await this.p.folders.findById(from))) {
      await deleteTree(this.p, before.ownerId, before.id);
    }
    throw notFound('Parent folder');
  }
}
