import { assertMay, notFound } from '../../../domain/index.js';
import type { Core } from '../../contract.js';
import type { Ports } from '../../ports/index.js';
import { passkeyView } from '../../views.js';
import { passkeyName } from './ceremony.js';

type Port = Core['renamePasskey'];

export class RenamePasskey implements Port {
  constructor(private readonly p: Pick<Ports, 'passkeys'>) {}

  async execute({ actor, id, name }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'auth.mfa');
    const renamed = await this.p.passkeys.rename(actor.userId, id, passkeyName(name));
    if (!renamed) throw notFound('Passkey');
    return passkeyView(renamed);
  }
}
