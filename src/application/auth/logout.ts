import { assertMay } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';

type Port = Core['logout'];

export class Logout implements Port {
  constructor(private readonly p: Pick<Ports, 'tokens'>) {}

  /**
   * Revokes exactly the session presented, the user's other sessions staying valid; or, `everywhere`, every session of
   * the user (a lost laptop). API tokens stay either way: they are revoked one by one.
   */
  async execute({ actor, everywhere = false }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'auth.logout');
    if (everywhere) await this.p.tokens.deleteByUser(actor.userId, 'session');
    else await this.p.tokens.delete(actor.tokenId);
  }
}
