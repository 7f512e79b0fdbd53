import { assertMay } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { createdCursor, parseCreatedCursor } from '../paging/cursor.js';
import { cut, pageSize } from '../paging/page-size.js';
import type { Ports } from '../ports/index.js';
import { requestView } from './request-views.js';

type Port = Core['listRequests'];

/** The caller's file requests, oldest first, one keyset page at a time (as pastes). */
export class ListRequests implements Port {
  constructor(private readonly p: Pick<Ports, 'requests' | 'clock'>) {}

  async execute({ actor, limit, cursor }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'request.list');
    const size = pageSize(limit);
    const after = parseCreatedCursor('requests', cursor);
    const { items, more } = cut(await this.p.requests.pageByOwner(actor.userId, after, size + 1), size);
    const now = this.p.clock.now();
    return {
      items: items.map((request) => requestView(request, now)),
      nextCursor: more ? createdCursor('requests', items.at(-1)!) : null,
    };
  }
}
