import { assertMay } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { collectionViews } from './collection-views.js';

type Port = Core['listCollections'];

export class ListCollections implements Port {
  constructor(private readonly p: Pick<Ports, 'collections' | 'files' | 'shares'>) {}

  async execute({ actor }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'collection.list');
    return collectionViews(this.p, await this.p.collections.listByOwner(actor.userId));
  }
}
