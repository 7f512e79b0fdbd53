import { assertMay, badRequest, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { owned } from '../owned.js';
import type { Ports } from '../ports/index.js';
import { requestOptions } from './request-options.js';
import { requestView } from './request-views.js';

type Port = Core['updateRequest'];

/** Changes what the fields name; `closed` closes or reopens it. Counts received stay as they are. */
export class UpdateRequest implements Port {
  constructor(private readonly p: Pick<Ports, 'requests' | 'folders' | 'clock' | 'hasher'>) {}

  async execute({ actor, id, folderId, closed, ...input }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'request.update');
    owned(await this.p.requests.findById(id), actor.userId, 'Request');
    const now = this.p.clock.now();
    const options = await requestOptions(this.p, input, now, false);
    if (folderId !== undefined) owned(await this.p.folders.findById(folderId), actor.userId, 'Folder');
    if (closed !== undefined && typeof closed !== 'boolean') throw badRequest('closed must be true or false', { field: 'closed' });
    const updated = await this.p.requests.update(id, {
      ...options,
      ...(folderId !== undefined ? { folderId } : {}),
      ...(closed !== undefined ? { closed } : {}),
      updatedAt: now,
    });
    if (!updated) throw notFound('Request');
    return requestView(updated, now);
  }
}
