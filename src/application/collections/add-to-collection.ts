import { MAX_COLLECTION_FILES, assertMay, badRequest, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { owned } from '../owned.js';
import { collectionViewOf } from './collection-views.js';

type Port = Core['addToCollection'];

/** Idempotent: adding a file that is already there answers with the collection as it is. */
export class AddToCollection implements Port {
  constructor(private readonly p: Pick<Ports, 'collections' | 'files' | 'shares' | 'clock'>) {}

  async execute({ actor, id, fileId }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'collection.update');
    owned(await this.p.collections.findById(id), actor.userId, 'Collection');
    owned(await this.p.files.findById(fileId), actor.userId, 'File');
    const result = await this.p.collections.addFile(id, fileId, MAX_COLLECTION_FILES, this.p.clock.now());
    if (result === 'missing') throw notFound('Collection');
    if (result === 'full') {
      throw badRequest(`A collection holds at most ${MAX_COLLECTION_FILES} files`, { field: 'fileId' });
    }
    const collection = await this.p.collections.findById(id);
    if (!collection) throw notFound('Collection');
    return collectionViewOf(this.p, collection);
  }
}
