import type { Collection } from '../../domain/index.js';
import { assertMay, requireName } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { createHeld } from '../usage/record-holds.js';
import { collectionView } from '../views.js';

type Port = Core['createCollection'];

export class CreateCollection implements Port {
  constructor(private readonly p: Pick<Ports, 'collections' | 'users' | 'usage' | 'settings' | 'ids' | 'clock' | 'instance'>) {}

  async execute({ actor, name }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'collection.create');
    const cleanName = requireName(name);
    const now = this.p.clock.now();
    const collection: Collection = {
      id: this.p.ids.newId(),
      ownerId: actor.userId,
      name: cleanName,
      fileIds: [],
      createdAt: now,
      updatedAt: now,
    };
    await createHeld(this.p, actor, 'collections', 'collection', collection.id, {
      insert: () => this.p.collections.insert(collection),
      takeBack: async () => (await this.p.collections.delete(collection.id)) !== null,
    });
    return collectionView(collection, [], null);
  }
}
