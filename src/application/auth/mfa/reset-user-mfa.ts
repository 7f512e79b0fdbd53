import { assertAdmin } from '../../../domain/index.js';
import type { Core } from '../../contract.js';
import type { Ports } from '../../ports/index.js';
import { findUser } from '../../admin/find-user.js';

type Port = Core['resetUserMfa'];

/**
 * An admin turns every second factor of a user off (a lost phone and lost codes, lost passkeys): TOTP, recovery codes
 * and passkeys; the password alone signs in again.
 */
export class ResetUserMfa implements Port {
  constructor(private readonly p: Pick<Ports, 'users' | 'secondFactors' | 'passkeys'>) {}

  async execute({ actor, id }: Parameters<Port['execute']>[0]) {
    assertAdmin(actor);
    const user = await findUser(this.p, id);
    // The passkeys go before the record that counts them (see RemovePasskey for why that order).
    await this.p.passkeys.deleteByUser(user.id);
    await this.p.secondFactors.deleteByUser(user.id);
  }
}
