import { forgetActivity } from '../activity/forget.js';
import { assertMay, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { recoverUserWork, type RecoveryDeps } from '../maintenance/recover-hold.js';
import { dropHeld, follow } from '../usage/record-holds.js';
import { owned } from '../owned.js';

type Port = Core['deleteCollection'];

/**
 * Deletes the collection and its share under a hold that holds what they count (written first, so a delete cut short
 * is finished by the sweep of gone instances); the files in it stay where they are.
 */
export class DeleteCollection implements Port {
  constructor(private readonly p: RecoveryDeps) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'collection.delete');
    const userId = actor.userId;
    owned(await this.p.collections.findById(id), userId, 'Collection');
    const shared = (await this.p.shares.findByItem('collection', id)) ? 1 : 0;
    const done = await dropHeld(this.p, userId, 'collection', id, { collections: 1, shares: shared }, async () => {
      const deleted = await this.p.collections.delete(id);
      const shares = await this.p.shares.deleteByItems('collection', [id]);
      await forgetActivity(this.p, { shareIds: shares.map((share) => share.id) });
      if (!deleted) return false;
      await follow(this.p, userId, id, 'shares', shared, shares.length);
      return true;
    });
    if (done === 'busy') await recoverUserWork(this.p, userId);
    if (done !== true) throw notFound('Collection');
  }
}
