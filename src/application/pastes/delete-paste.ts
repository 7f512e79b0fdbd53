import { assertMay, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { owned } from '../owned.js';

type Port = Core['deletePaste'];

export class DeletePaste implements Port {
  constructor(private readonly p: Pick<Ports, 'pastes' | 'shares' | 'usage'>) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'paste.delete');
    owned(await this.p.pastes.findById(id), actor.userId, 'Paste');
    // The size released is the one of the record actually deleted, and only by the caller who deleted it.
    const deleted = await this.p.pastes.delete(id);
    if (!deleted) throw notFound('Paste');
    const shares = await this.p.shares.deleteByItems('paste', [id]);
    if (shares.length > 0) await this.p.usage.release(actor.userId, 'shares', shares.length);
    await this.p.usage.release(actor.userId, 'pastes', 1);
    if (deleted.size > 0) await this.p.usage.release(actor.userId, 'storage', deleted.size);
  }
}
