import { assertMay, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { recoverUserWork, type RecoveryDeps } from '../maintenance/recover-hold.js';
import { dropShared } from '../usage/record-holds.js';
import { owned } from '../owned.js';

type Port = Core['deleteCollection'];

/**
 * Deletes the collection, then claims and deletes its share, under a hold written first (dropShared), so a delete cut
 * short is finished by the sweep of gone instances; the files in it stay where they are.
 */
export class DeleteCollection implements Port {
  constructor(private readonly p: RecoveryDeps) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'collection.delete');
    const userId = actor.userId;
    owned(await this.p.collections.findById(id), userId, 'Collection');
    const done = await dropShared(this.p, userId, 'collection', id, { collections: 1 }, async () => (await this.p.collections.delete(id)) !== null);
    if (done === 'busy') await recoverUserWork(this.p, userId);
    if (done !== true) throw notFound('Collection');
  }
}
