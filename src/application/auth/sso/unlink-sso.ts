import { assertMay, conflict, unauthorized } from '../../../domain/index.js';
import type { Core } from '../../contract.js';
import type { Ports } from '../../ports/index.js';

type Port = Core['unlinkSso'];

/**
 * Removes the user's single sign-on identity, only while they could still sign in without it: with a passkey, or with
 * a password that PASSWORD_LOGIN lets them use. Nothing linked: done all the same.
 */
export class UnlinkSso implements Port {
  constructor(private readonly p: Pick<Ports, 'users' | 'clock' | 'settings' | 'secondFactors'>) {}

  async execute({ actor }: Parameters<Port['execute']>[0]): Promise<void> {
    assertMay(actor, 'auth.sso.unlink');
    // A passkey signs its user in on its own (whatever PASSWORD_LOGIN says): it is a way in without single sign-on.
    const passkeys = (await this.p.secondFactors.find(actor.userId))?.passkeyCount ?? 0;
    if (passkeys > 0) {
      if ((await this.p.users.unlinkOidc(actor.userId, this.p.clock.now(), false)) === 'missing') {
        throw unauthorized('The user no longer exists');
      }
      return;
    }
    const mode = this.p.settings.passwordLogin;
    if (mode === 'disabled' || (mode === 'admins' && actor.userType !== 'admin')) {
      throw conflict('Password sign-in is turned off for you here: without single sign-on you could not sign in');
    }
    const outcome = await this.p.users.unlinkOidc(actor.userId, this.p.clock.now(), true);
    if (outcome === 'missing') throw unauthorized('The user no longer exists');
    if (outcome === 'no_password') {
      throw conflict('You have no password or passkey: without single sign-on you could not sign in. Add a passkey, or ask an admin to set a password, first');
    }
  }
}
