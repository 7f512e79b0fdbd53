import { assertMay, conflict, unauthorized } from '../../../domain/index.js';
import type { Core } from '../../contract.js';
import type { Ports } from '../../ports/index.js';
import { TOTP_ISSUER } from './codes.js';

type Port = Core['startTotp'];

/**
 * Hands out a new TOTP secret, kept as pending: nothing changes for signing in until a code of it is confirmed.
 * A second setup replaces the pending secret; while TOTP is on, a new one is refused (turn it off first).
 */
export class StartTotp implements Port {
  constructor(private readonly p: Pick<Ports, 'users' | 'secondFactors' | 'codes' | 'clock'>) {}

  async execute({ actor }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'auth.mfa');
    const user = await this.p.users.findById(actor.userId);
    if (!user) throw unauthorized('The user no longer exists');
    const secret = this.p.codes.newTotpSecret();
    if (!(await this.p.secondFactors.startTotp(user.id, secret, this.p.clock.now()))) {
      throw conflict('TOTP is already on; turn it off first to set up a new key');
    }
    return { secret, otpauthUrl: this.p.codes.totpUri(secret, TOTP_ISSUER, user.username) };
  }
}
