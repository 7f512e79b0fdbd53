import { assertMay, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { recoverUserWork, type RecoveryDeps } from '../maintenance/recover-hold.js';
import { dropShared } from '../usage/record-holds.js';
import { owned } from '../owned.js';

type Port = Core['deleteShare'];

/**
 * Deletes the link only; the shared item stays. The share is claimed under a hold named by its id, written before
 * (dropShared), so a delete cut short is finished by the sweep of gone instances; a share a removal of its item
 * claimed first is that removal's to count, and answers as a share that is gone.
 */
export class DeleteShare implements Port {
  constructor(private readonly p: RecoveryDeps) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'share.delete');
    owned(await this.p.shares.findById(id), actor.userId, 'Share');
    const done = await dropShared(this.p, actor.userId, 'share', id, {});
    if (done === 'busy') await recoverUserWork(this.p, actor.userId);
    if (done !== true) throw notFound('Share');
  }
}
