import { assertMay, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { owned } from '../owned.js';
import { collectionViewOf } from './collection-views.js';

type Port = Core['removeFromCollection'];

/** Removing a file that is not in the collection is not an error: the outcome the caller wants already holds. */
export class RemoveFromCollection implements Port {
  constructor(private readonly p: Pick<Ports, 'collections' | 'files' | 'shares' | 'clock'>) {}

  async execute({ actor, id, fileId }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'collection.update');
    owned(await this.p.collections.findById(id), actor.userId, 'Collection');
    if (!(await this.p.collections.removeFile(id, fileId, this.p.clock.now()))) throw notFound('Collection');
    const collection = await this.p.collections.findById(id);
    if (!collection) throw notFound('Collection');
    return collectionViewOf(this.p, collection);
  }
}
