import { assertMay } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { owned } from '../owned.js';
import type { Ports } from '../ports/index.js';
import { requestView } from './request-views.js';

type Port = Core['getRequest'];

export class GetRequest implements Port {
  constructor(private readonly p: Pick<Ports, 'requests' | 'clock'>) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'request.read');
    return requestView(owned(await this.p.requests.findById(id), actor.userId, 'Request'), this.p.clock.now());
  }
}
