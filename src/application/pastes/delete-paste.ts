import { assertMay, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { recoverUserWork, type RecoveryDeps } from '../maintenance/recover-hold.js';
import { dropShared, follow } from '../usage/record-holds.js';
import { owned } from '../owned.js';
import { endLandedRewrites } from './rewrite-hold.js';

type Port = Core['deletePaste'];

/**
 * Deletes the paste, then claims and deletes its share, under a hold written first that holds what the paste counts
 * (dropShared: the share's count is added once it is claimed), so a delete cut short is finished by the sweep of gone
 * instances; the hold's release gives the counts back.
 */
export class DeletePaste implements Port {
  constructor(private readonly p: RecoveryDeps) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'paste.delete');
    const userId = actor.userId;
    const paste = owned(await this.p.pastes.findById(id), userId, 'Paste');
    const amounts = { pastes: 1, ...(paste.size > 0 && { storage: paste.size }) };
    const done = await dropShared(this.p, userId, 'paste', id, amounts, async () => {
      // Rewrites that landed and were never ended (their instance died) are ended before the paste that tells it goes.
      await endLandedRewrites(this.p, userId, paste.rewrites);
      const deleted = await this.p.pastes.delete(id);
      if (!deleted) return false;
      await endLandedRewrites(this.p, userId, deleted.rewrites, paste.rewrites);
      // The size given back is the one of the record deleted (a rewrite may have changed it since it was read).
      await follow(this.p, userId, id, 'storage', paste.size, deleted.size);
      return true;
    });
    if (done === 'busy') await recoverUserWork(this.p, userId);
    if (done !== true) throw notFound('Paste');
  }
}
