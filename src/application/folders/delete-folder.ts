import { assertMay, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { recoverUserWork, type RecoveryDeps } from '../maintenance/recover-hold.js';
import { deleteTree } from './remove-tree.js';

type Port = Core['deleteFolder'];
type Deps = Pick<Ports, 'folders'> & RecoveryDeps;

/**
 * Deletes the folder and everything below it (files with their bytes, shares and collection entries, then the
 * folders). The folder is marked first: from then on it is gone for every read and nothing new stays in it. A
 * folder marked already (a delete under way, or one cut short) is deleted again, which finishes the job; what an
 * instance now gone left of this user's removals is finished first.
 */
export class DeleteFolder implements Port {
  constructor(private readonly p: Deps) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'folder.delete');
    await recoverUserWork(this.p, actor.userId);
    if (!(await deleteTree(this.p, actor.userId, id))) throw notFound('Folder');
  }
}
