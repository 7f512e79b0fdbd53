import { assertMay, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { owned } from '../owned.js';

type Port = Core['deleteShare'];

/** Deletes the link only; the shared item stays. */
export class DeleteShare implements Port {
  constructor(private readonly p: Pick<Ports, 'shares' | 'usage'>) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'share.delete');
    owned(await this.p.shares.findById(id), actor.userId, 'Share');
    // Only the caller whose delete removed the record releases the count, so concurrent deletes never double-count.
    if (!(await this.p.shares.delete(id))) throw notFound('Share');
    await this.p.usage.release(actor.userId, 'shares', 1);
  }
}
