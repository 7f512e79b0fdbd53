import { assertMay, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { owned } from '../owned.js';
import type { Ports } from '../ports/index.js';

type Port = Core['deleteRequest'];

/** The request goes (its link stops working at once); what it received stays in the owner's folder. */
export class DeleteRequest implements Port {
  constructor(private readonly p: Pick<Ports, 'requests' | 'usage'>) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'request.delete');
    owned(await this.p.requests.findById(id), actor.userId, 'Request');
    // Given back only by the caller whose delete removed the record, so it goes back exactly once.
    if (!(await this.p.requests.delete(id))) throw notFound('Request');
    await this.p.usage.release(actor.userId, 'requests', 1);
  }
}
