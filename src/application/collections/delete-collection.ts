import { assertMay, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { owned } from '../owned.js';

type Port = Core['deleteCollection'];

/** Deletes the collection and its share; the files in it stay where they are. */
export class DeleteCollection implements Port {
  constructor(private readonly p: Pick<Ports, 'collections' | 'shares' | 'usage'>) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'collection.delete');
    owned(await this.p.collections.findById(id), actor.userId, 'Collection');
    // Only the caller whose delete removed the record releases its counts, so a concurrent delete never double-counts.
    if (!(await this.p.collections.delete(id))) throw notFound('Collection');
    const shares = await this.p.shares.deleteByItems('collection', [id]);
    if (shares.length > 0) await this.p.usage.release(actor.userId, 'shares', shares.length);
    await this.p.usage.release(actor.userId, 'collections', 1);
  }
}
