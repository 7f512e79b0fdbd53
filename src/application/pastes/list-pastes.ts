import { assertMay } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { createdCursor, parseCreatedCursor } from '../paging/cursor.js';
import { cut, pageSize } from '../paging/page-size.js';
import type { Ports } from '../ports/index.js';
import { pasteView } from '../views.js';

type Port = Core['listPastes'];

/** The caller's pastes, oldest first, one keyset page at a time. */
export class ListPastes implements Port {
  constructor(private readonly p: Pick<Ports, 'pastes' | 'shares'>) {}

  async execute({ actor, limit, cursor }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'paste.list');
    const size = pageSize(limit);
    const after = parseCreatedCursor('pastes', cursor);
    const { items, more } = cut(await this.p.pastes.pageByOwner(actor.userId, after, size + 1), size);
    const shareIds = await this.p.shares.idsForItems('paste', items.map((paste) => paste.id));
    return {
      items: items.map((paste) => pasteView(paste, shareIds.get(paste.id) ?? null)),
      nextCursor: more ? createdCursor('pastes', items.at(-1)!) : null,
    };
  }
}
