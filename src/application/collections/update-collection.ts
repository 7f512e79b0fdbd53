import { assertMay, notFound, requireName } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { owned } from '../owned.js';
import { collectionViewOf } from './collection-views.js';

type Port = Core['updateCollection'];

export class UpdateCollection implements Port {
  constructor(private readonly p: Pick<Ports, 'collections' | 'files' | 'shares' | 'clock'>) {}

  async execute({ actor, id, name }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'collection.update');
    let collection = owned(await this.p.collections.findById(id), actor.userId, 'Collection');
    if (name !== undefined) {
      const renamed = await this.p.collections.rename(id, requireName(name), this.p.clock.now());
      if (!renamed) throw notFound('Collection');
      collection = renamed;
    }
    return collectionViewOf(this.p, collection);
  }
}
