import { assertMay, notFound } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { recoverUserWork, type RecoveryDeps } from '../maintenance/recover-hold.js';
import { dropHeld } from '../usage/record-holds.js';

type Port = Core['deleteApiToken'];

export class DeleteApiToken implements Port {
  constructor(private readonly p: RecoveryDeps) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'token.delete');
    const token = await this.p.tokens.findById(id);
    // Sessions are not API tokens and never count toward the tokens limit; they look as missing as a foreign token.
    if (!token || token.userId !== actor.userId || token.type === 'session') throw notFound('Token');
    // The count goes back through a hold written before the delete, and only if this call removed the token, so
    // concurrent deletes release once and a delete cut short is finished by the sweep of gone instances.
    const done = await dropHeld(this.p, actor.userId, 'token', id, { tokens: 1 }, () => this.p.tokens.delete(id));
    if (done === 'busy') await recoverUserWork(this.p, actor.userId);
  }
}
