import { assertMay } from '../../domain/index.js';
import type { ListActivityInput, Page } from '../contract.js';
import { owned } from '../owned.js';
import { createdCursor, parseCreatedCursor } from '../paging/cursor.js';
import { cut, pageSize } from '../paging/page-size.js';
import type { ActivityFilter, Ports } from '../ports/index.js';
import { activityView, type ActivityView } from './activity-views.js';

/**
 * The owner's events, newest first, one keyset page at a time: of one share, of one request (either must be the
 * caller's, else not_found), or all of them. From a session only, as everything beyond uploads.
 */
export class ListActivity {
  constructor(private readonly p: Pick<Ports, 'activityLog' | 'shares' | 'requests'>) {}

  async execute({ actor, shareId, requestId, kind, limit, cursor }: ListActivityInput): Promise<Page<ActivityView>> {
    assertMay(actor, 'activity.list');
    const size = pageSize(limit);
    const after = parseCreatedCursor('activity', cursor);
    const filter: ActivityFilter = { ownerId: actor.userId, ...(kind && { kind }) };
    if (shareId !== undefined) {
      owned(await this.p.shares.findById(shareId), actor.userId, 'Share');
      filter.shareId = shareId;
    }
    if (requestId !== undefined) {
      owned(await this.p.requests.findById(requestId), actor.userId, 'Request');
      filter.requestId = requestId;
    }
    const key = after && { at: after.createdAt, id: after.id };
    const { items, more } = cut(await this.p.activityLog.page(filter, key, size + 1), size);
    const last = items.at(-1);
    return {
      items: items.map(activityView),
      nextCursor: more && last ? createdCursor('activity', { createdAt: last.at, id: last.id }) : null,
    };
  }
}
