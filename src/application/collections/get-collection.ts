import { notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { authorizeRead } from '../shares/share-access.js';
import { seenThrough } from '../views.js';
import { collectionViewOf } from './collection-views.js';

type Port = Core['getCollection'];

export class GetCollection implements Port {
  constructor(
    private readonly p: Pick<Ports, 'collections' | 'files' | 'shares' | 'hasher' | 'throttle' | 'activity' | 'ids' | 'settings' | 'clock' | 'secrets'>,
  ) {}

  async execute({ access, id }: Parameters<Port['execute']>[0]) {
    const collection = await this.p.collections.findById(id);
    // A missing collection goes through the same checks as a foreign one (no owner matches ''), so the answer
    // (unauthorized, forbidden or not_found) never reveals whether it exists.
    const through = await authorizeRead(this.p, access, {
      what: 'Collection',
      ownerId: collection?.ownerId ?? '',
      action: 'collection.read',
      describe: async () => ({ kind: 'collection', collectionId: id }),
    });
    if (!collection) throw notFound('Collection');
    const view = await collectionViewOf(this.p, collection);
    return { ...view, files: view.files.map((file) => seenThrough(file, through)) };
  }
}
