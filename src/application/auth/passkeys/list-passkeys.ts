import { assertMay } from '../../../domain/index.js';
import type { Core } from '../../contract.js';
import type { Ports } from '../../ports/index.js';
import { passkeyView } from '../../views.js';

type Port = Core['listPasskeys'];

/** The caller's passkeys, oldest first: at most MAX_PASSKEYS, so never paged. */
export class ListPasskeys implements Port {
  constructor(private readonly p: Pick<Ports, 'passkeys'>) {}

  async execute({ actor }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'auth.mfa');
    return (await this.p.passkeys.listByUser(actor.userId)).map(passkeyView);
  }
}
