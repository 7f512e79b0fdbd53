import { assertMay, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';

type Port = Core['deleteApiToken'];

export class DeleteApiToken implements Port {
  constructor(private readonly p: Pick<Ports, 'tokens' | 'usage'>) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'token.delete');
    const token = await this.p.tokens.findById(id);
    // Sessions are not API tokens and never count toward the tokens limit; they look as missing as a foreign token.
    if (!token || token.userId !== actor.userId || token.type !== 'uploader') throw notFound('Token');
    // Only the call that actually removed it gives the unit back, so concurrent deletes release once.
    if (await this.p.tokens.delete(id)) await this.p.usage.release(actor.userId, 'tokens', 1);
  }
}
