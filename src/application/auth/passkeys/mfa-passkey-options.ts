import { conflict } from '../../../domain/index.js';
import type { Core } from '../../contract.js';
import type { Ports } from '../../ports/index.js';
import { pendingSignIn } from '../mfa/login-mfa.js';
import { issueChallenge, refs } from './ceremony.js';

type Port = Core['mfaPasskeyOptions'];

/** Options to answer a sign-in's second step with a passkey: the user's own passkeys only, bound to this mfaToken. */
export class MfaPasskeyOptions implements Port {
  constructor(
    private readonly p: Pick<Ports, 'users' | 'mfaChallenges' | 'passkeys' | 'secrets' | 'webauthn' | 'webauthnChallenges' | 'clock'>,
  ) {}

  async execute({ mfaToken, rp }: Parameters<Port['execute']>[0]) {
    const { user, hash } = await pendingSignIn(this.p, mfaToken);
    const passkeys = await this.p.passkeys.listByUser(user.id);
    if (passkeys.length === 0) throw conflict('This account has no passkey; answer with a code');
    const made = await this.p.webauthn.authenticationOptions({ rp, allow: refs(passkeys) });
    return issueChallenge(this.p, made, { purpose: 'mfa', userId: user.id, mfaTokenHash: hash, rp });
  }
}
