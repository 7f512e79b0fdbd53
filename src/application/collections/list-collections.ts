import { assertMay } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { createdCursor, parseCreatedCursor } from '../paging/cursor.js';
import { cut, pageSize } from '../paging/page-size.js';
import type { Ports } from '../ports/index.js';
import { collectionViews } from './collection-views.js';

type Port = Core['listCollections'];

/** The caller's collections, oldest first, one keyset page at a time. */
export class ListCollections implements Port {
  constructor(private readonly p: Pick<Ports, 'collections' | 'files' | 'shares'>) {}

  async execute({ actor, limit, cursor }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'collection.list');
    const size = pageSize(limit);
    const after = parseCreatedCursor('collections', cursor);
    const { items, more } = cut(await this.p.collections.pageByOwner(actor.userId, after, size + 1), size);
    return {
      items: await collectionViews(this.p, items),
      nextCursor: more ? createdCursor('collections', items.at(-1)!) : null,
    };
  }
}
