import type { Core } from '../../contract.js';
import type { Ports } from '../../ports/index.js';
import { countUse } from '../judge-guess.js';
import { passkeyOptionsKey } from '../throttle-rules.js';
import { issueChallenge } from './ceremony.js';

type Port = Core['passkeyLoginOptions'];

/**
 * Options for a sign-in without a password: no user is known yet, so they name no credential (the authenticator
 * offers its discoverable ones for this site). Anyone may ask, and each answer is a stored challenge, so each address
 * may ask PASSKEY_OPTIONS_PER_ADDRESS times a window.
 */
export class PasskeyLoginOptions implements Port {
  constructor(private readonly p: Pick<Ports, 'webauthn' | 'webauthnChallenges' | 'clock' | 'throttle'>) {}

  async execute({ rp, client }: Parameters<Port['execute']>[0]) {
    await countUse(this.p.throttle, passkeyOptionsKey(client));
    const made = await this.p.webauthn.authenticationOptions({ rp, allow: null });
    return issueChallenge(this.p, made, { purpose: 'login', userId: null, mfaTokenHash: null, rp });
  }
}
