import { DomainError } from '../../../domain/index.js';
import type { Core } from '../../contract.js';
import type { Ports } from '../../ports/index.js';
import { issueSession } from '../issue-session.js';
import { judgeAttempt } from '../judge-guess.js';
import { passkeyLoginKey } from '../throttle-rules.js';
import { takeChallenge, useAssertion } from './ceremony.js';

type Port = Core['loginPasskey'];

const refused = () => new DomainError('unauthorized', 'The passkey was not accepted; ask for new options and try again');
const unverified = () =>
  new DomainError(
    'unauthorized',
    'The authenticator did not verify you (no PIN, fingerprint or face): sign in with your password and use the passkey as the second factor',
  );

/**
 * A sign-in with a passkey alone (a discoverable credential): a full sign-in, even for a user with TOTP, since the
 * authenticator proves both possession of the key and, with user verification, the person. So user verification is
 * required here, unlike after a password. The response's user handle must name the credential's owner. Every
 * refusal looks the same and counts against the client address.
 */
export class LoginPasskey implements Port {
  constructor(
    private readonly p: Pick<
      Ports,
      'users' | 'tokens' | 'passkeys' | 'webauthn' | 'webauthnChallenges' | 'secrets' | 'ids' | 'clock' | 'settings' | 'throttle'
    >,
  ) {}

  async execute({ response, rp, client }: Parameters<Port['execute']>[0]) {
    const proven = await judgeAttempt(this.p.throttle, passkeyLoginKey(client), async () => {
      const claim = this.p.webauthn.assertionClaim(response);
      const challenge = await takeChallenge(this.p, response, 'login', rp);
      if (!claim || !challenge) return null;
      const passkey = await this.p.passkeys.findByCredentialId(claim.credentialId);
      if (!passkey || claim.userId !== passkey.userId) return null;
      const used = await useAssertion(this.p, response, challenge, passkey);
      if (!used) return null;
      const user = await this.p.users.findById(passkey.userId);
      return user ? { user, userVerified: used.userVerified } : null;
    });
    if (!proven) throw refused();
    if (!proven.userVerified) throw unverified();
    return issueSession(this.p, proven.user);
  }
}
