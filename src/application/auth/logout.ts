import { assertMay } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';

type Port = Core['logout'];

export class Logout implements Port {
  constructor(private readonly p: Pick<Ports, 'tokens'>) {}

  /** Revokes exactly the session presented; the user's other sessions stay valid. */
  async execute({ actor }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'auth.logout');
    await this.p.tokens.delete(actor.tokenId);
  }
}
