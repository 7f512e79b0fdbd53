import { assertMay, unauthorized } from '../../../domain/index.js';
import type { Core } from '../../contract.js';
import type { Ports } from '../../ports/index.js';
import { issueChallenge, MAX_PASSKEYS, RP_NAME, refs, tooManyPasskeys } from './ceremony.js';

type Port = Core['passkeyRegistrationOptions'];

/** Options to register a passkey; the user's own passkeys are excluded, so one authenticator is not added twice. */
export class PasskeyRegistrationOptions implements Port {
  constructor(private readonly p: Pick<Ports, 'users' | 'passkeys' | 'webauthn' | 'webauthnChallenges' | 'clock'>) {}

  async execute({ actor, rp }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'auth.mfa');
    const user = await this.p.users.findById(actor.userId);
    if (!user) throw unauthorized('The user no longer exists');
    const existing = await this.p.passkeys.listByUser(user.id);
    // Said early for the person's sake; the maximum itself holds at registration (one conditional count).
    if (existing.length >= MAX_PASSKEYS) throw tooManyPasskeys();
    const made = await this.p.webauthn.registrationOptions({
      rp,
      rpName: RP_NAME,
      userId: user.id,
      userName: user.username,
      exclude: refs(existing),
    });
    return issueChallenge(this.p, made, { purpose: 'register', userId: user.id, mfaTokenHash: null, rp });
  }
}
