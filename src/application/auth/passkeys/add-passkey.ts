import { assertMay, badRequest, conflict, unauthorized } from '../../../domain/index.js';
import type { Core } from '../../contract.js';
import type { Passkey, Ports } from '../../ports/index.js';
import { passkeyView } from '../../views.js';
import { DEFAULT_PASSKEY_NAME, MAX_PASSKEYS, passkeyName, takeChallenge, tooManyPasskeys } from './ceremony.js';

type Port = Core['addPasskey'];

const refused = (why: string) => badRequest(`The passkey was not registered: ${why}`, { field: 'response' });

/**
 * Registers the passkey that answered this user's registration options. The count goes first (one conditional
 * increment within the maximum), then the record; a record refused (a credential registered already) gives the count
 * back. A factor turned on ends the user's other sessions, as TOTP's does; this one and the API tokens stay.
 */
export class AddPasskey implements Port {
  constructor(
    private readonly p: Pick<
      Ports,
      'users' | 'tokens' | 'passkeys' | 'secondFactors' | 'webauthn' | 'webauthnChallenges' | 'ids' | 'clock'
    >,
  ) {}

  async execute({ actor, rp, name, response }: Parameters<Port['execute']>[0]) {
    assertMay(actor, 'auth.mfa');
    const cleanName = passkeyName(name ?? DEFAULT_PASSKEY_NAME);
    const challenge = await takeChallenge(this.p, response, 'register', rp);
    if (!challenge || challenge.userId !== actor.userId) {
      throw refused('it does not answer registration options of yours that are unused and under 5 minutes old');
    }
    const verdict = await this.p.webauthn.verifyRegistration({ response, challenge: challenge.challenge, rp: challenge.rp });
    if (!verdict.ok) throw refused(verdict.reason);
    const user = await this.p.users.findById(actor.userId);
    if (!user) throw unauthorized('The user no longer exists');
    const now = this.p.clock.now();
    if (!(await this.p.secondFactors.addPasskeySlot(user.id, MAX_PASSKEYS, now))) throw tooManyPasskeys();
    const { credentialId, publicKey, counter, transports } = verdict.value;
    const passkey: Passkey = {
      id: this.p.ids.newId(),
      userId: user.id,
      credentialId,
      publicKey,
      counter,
      transports,
      name: cleanName,
      createdAt: now,
      lastUsedAt: null,
    };
    let inserted: boolean;
    try {
      inserted = await this.p.passkeys.insert(passkey);
    } catch (err) {
      await this.p.secondFactors.releasePasskeySlot(user.id, this.p.clock.now());
      throw err;
    }
    if (!inserted) {
      await this.p.secondFactors.releasePasskeySlot(user.id, this.p.clock.now());
      throw conflict('This passkey is registered already');
    }
    await this.p.tokens.deleteByUser(user.id, 'session', actor.tokenId);
    return passkeyView(passkey);
  }
}
