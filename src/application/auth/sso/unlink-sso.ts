import { assertMay, conflict, unauthorized } from '../../../domain/index.js';
import type { Core } from '../../contract.js';
import type { Ports } from '../../ports/index.js';

type Port = Core['unlinkSso'];

/**
 * Removes the user's single sign-on identity, only while they could still sign in without it: with a password that
 * PASSWORD_LOGIN lets them use. Nothing linked: done all the same.
 */
export class UnlinkSso implements Port {
  constructor(private readonly p: Pick<Ports, 'users' | 'clock' | 'settings'>) {}

  async execute({ actor }: Parameters<Port['execute']>[0]): Promise<void> {
    assertMay(actor, 'auth.sso.unlink');
    const mode = this.p.settings.passwordLogin;
    if (mode === 'disabled' || (mode === 'admins' && actor.userType !== 'admin')) {
      throw conflict('Password sign-in is turned off for you here: without single sign-on you could not sign in');
    }
    const outcome = await this.p.users.unlinkOidc(actor.userId, this.p.clock.now());
    if (outcome === 'missing') throw unauthorized('The user no longer exists');
    if (outcome === 'no_password') {
      throw conflict('You have no password: without single sign-on you could not sign in. Ask an admin to set one first');
    }
  }
}
