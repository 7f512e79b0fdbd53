import { assertMay, notFound } from '../../../domain/index.js';
import type { Core } from '../../contract.js';
import type { Ports } from '../../ports/index.js';

type Port = Core['removePasskey'];

/**
 * Removes one of the caller's passkeys. The record goes before its count: a removal cut between the two leaves the
 * count one too high (a sign-in may ask for a passkey the user no longer has; the admin reset clears it), never a
 * passkey that sign-ins do not ask for.
 */
export class RemovePasskey implements Port {
  constructor(private readonly p: Pick<Ports, 'passkeys' | 'secondFactors' | 'clock'>) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'auth.mfa');
    if (!(await this.p.passkeys.delete(actor.userId, id))) throw notFound('Passkey');
    await this.p.secondFactors.releasePasskeySlot(actor.userId, this.p.clock.now());
  }
}
