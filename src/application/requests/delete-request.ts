import { forgetActivity } from '../activity/forget.js';
import { assertMay, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { owned } from '../owned.js';
import type { Ports } from '../ports/index.js';
import { dropHeld } from '../usage/record-holds.js';

type Port = Core['deleteRequest'];

/** The request goes (its link stops working at once); what it received stays in the owner's folder. */
export class DeleteRequest implements Port {
  constructor(private readonly p: Pick<Ports, 'requests' | 'usage' | 'instance' | 'clock' | 'activityLog' | 'mailNotices'>) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'request.delete');
    owned(await this.p.requests.findById(id), actor.userId, 'Request');
    // Under a hold naming this instance that holds the count it gives back, written before the record goes: a delete
    // cut anywhere is finished by the sweep of gone instances; given back only by the caller whose delete removed it.
    const dropped = await dropHeld(this.p, actor.userId, 'request', id, { requests: 1 }, async () => (await this.p.requests.delete(id)) !== null);
    if (dropped !== true) throw notFound('Request');
    await forgetActivity(this.p, { requestIds: [id] });
  }
}
