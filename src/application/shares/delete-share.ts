import { forgetActivity } from '../activity/forget.js';
import { assertMay, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { recoverUserWork, type RecoveryDeps } from '../maintenance/recover-hold.js';
import { dropHeld } from '../usage/record-holds.js';
import { owned } from '../owned.js';

type Port = Core['deleteShare'];

/**
 * Deletes the link only; the shared item stays. The count goes back through a hold written before the delete, so a
 * delete cut short is finished by the sweep of gone instances; only the delete that removed the record gives it back.
 */
export class DeleteShare implements Port {
  constructor(private readonly p: RecoveryDeps) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'share.delete');
    owned(await this.p.shares.findById(id), actor.userId, 'Share');
    const done = await dropHeld(this.p, actor.userId, 'share', id, { shares: 1 }, async () => (await this.p.shares.delete(id)) !== null);
    if (done === 'busy') await recoverUserWork(this.p, actor.userId);
    if (done !== true) throw notFound('Share');
    await forgetActivity(this.p, { shareIds: [id] });
  }
}
