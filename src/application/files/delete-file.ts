import { assertMay } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { recoverUserWork, type RecoveryDeps } from '../maintenance/recover-hold.js';
import { removeFiles } from './remove-files.js';
import { owned } from '../owned.js';

type Port = Core['deleteFile'];

/**
 * Deletes the file with its bytes, its share and its place in collections; what an instance now gone left of this
 * user's removals is finished first (a delete repeated after a crash finishes the one cut short).
 */
export class DeleteFile implements Port {
  constructor(private readonly p: RecoveryDeps) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'file.delete');
    await recoverUserWork(this.p, actor.userId);
    const file = owned(await this.p.files.findById(id), actor.userId, 'File');
    await removeFiles(this.p, [file]);
  }
}
