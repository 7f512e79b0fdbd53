import { badRequest, DomainError, type User } from '../../../domain/index.js';
import type { Core } from '../../contract.js';
import type { CredentialJson, Ports, RelyingParty } from '../../ports/index.js';
import type { MfaMethod, MfaRequiredView } from '../../views.js';
import { issueSession } from '../issue-session.js';
import { judgeGuess } from '../judge-guess.js';
import { takeChallenge, useAssertion } from '../passkeys/ceremony.js';
import { codeKeys } from '../throttle-rules.js';
import { methodsOf, spendCode } from './codes.js';

type Port = Core['loginMfa'];

/** How long a sign-in waits for its second factor. */
export const MFA_TOKEN_TTL_MS = 5 * 60_000;

const expired = () => new DomainError('unauthorized', 'The sign-in has expired or was used; sign in again');
const wrongCode = () => new DomainError('unauthorized', 'The code is wrong');
const wrongPasskey = () =>
  new DomainError('unauthorized', 'The passkey was not accepted; ask for new options and try again');

type ChallengeDeps = Pick<Ports, 'mfaChallenges' | 'secrets' | 'clock'>;

/**
 * The half-way answer of a login whose password was right, for a user with a second factor. Only the token's digest
 * is stored; it names the user and the credentials epoch of the record whose password was checked.
 */
export async function startMfaChallenge(p: ChallengeDeps, user: User, methods: MfaRequiredView['methods']) {
  const mfaToken = p.secrets.newSecret();
  const now = p.clock.now();
  await p.mfaChallenges.insert({
    hash: p.secrets.hash(mfaToken),
    userId: user.id,
    credentialsEpoch: user.credentialsEpoch,
    expiresAt: new Date(now.getTime() + MFA_TOKEN_TTL_MS),
  });
  return { mfaRequired: true as const, mfaToken, methods };
}

/**
 * The sign-in an mfaToken stands for, still unexpired and unused, and its user: unauthorized otherwise. A password
 * changed since the challenge was made voids it, as it voids sessions of the old password.
 */
export async function pendingSignIn(p: Pick<Ports, 'users' | 'mfaChallenges' | 'secrets' | 'clock'>, mfaToken: string) {
  if (mfaToken === '') throw badRequest('mfaToken is required', { field: 'mfaToken' });
  const hash = p.secrets.hash(mfaToken);
  const challenge = await p.mfaChallenges.find(hash, p.clock.now());
  if (!challenge) throw expired();
  const user = await p.users.findById(challenge.userId);
  if (!user || user.credentialsEpoch !== challenge.credentialsEpoch) throw expired();
  return { user, hash };
}

type PasskeyDeps = Pick<Ports, 'passkeys' | 'webauthn' | 'webauthnChallenges' | 'clock'>;

/**
 * A passkey as the second factor: it answers options made for this very mfaToken, it is one of this user's, and its
 * assertion checks out. User verification is not needed: the password was the other factor.
 */
async function provePasskey(
  p: PasskeyDeps,
  answer: { response: CredentialJson; rp: RelyingParty; user: User; hash: string },
): Promise<MfaMethod | null> {
  const { response, rp, user, hash } = answer;
  const claim = p.webauthn.assertionClaim(response);
  const challenge = await takeChallenge(p, response, 'mfa', rp);
  if (!claim || !challenge || challenge.mfaTokenHash !== hash || challenge.userId !== user.id) return null;
  if (claim.userId !== null && claim.userId !== user.id) return null;
  const passkey = await p.passkeys.findByCredentialId(claim.credentialId);
  if (!passkey || passkey.userId !== user.id) return null;
  return (await useAssertion(p, response, challenge, passkey)) ? 'passkey' : null;
}

/**
 * The second step of a sign-in: the mfaToken and a TOTP or recovery code, or a passkey's answer to the options made
 * for it (POST /api/auth/login/mfa/options). Wrong answers are throttled per account as passwords are and leave the
 * mfaToken usable until it expires; the right one spends the code (or the challenge) and the token (each once,
 * whatever races it) and answers what a login answers.
 */
export class LoginMfa implements Port {
  constructor(
    private readonly p: Pick<
      Ports,
      | 'users'
      | 'tokens'
      | 'secondFactors'
      | 'mfaChallenges'
      | 'codes'
      | 'secrets'
      | 'ids'
      | 'clock'
      | 'settings'
      | 'throttle'
      | 'passkeys'
      | 'webauthn'
      | 'webauthnChallenges'
    >,
  ) {}

  async execute({ mfaToken, code, passkey, rp, client }: Parameters<Port['execute']>[0]) {
    if (mfaToken === '') throw badRequest('mfaToken is required', { field: 'mfaToken' });
    if ((code === undefined) === (passkey === undefined)) {
      throw badRequest('Answer with either code or passkey', { field: 'code' });
    }
    if (code !== undefined && code.trim() === '') throw badRequest('code is required', { field: 'code' });
    if (passkey !== undefined && rp === undefined) throw badRequest('A passkey needs the relying party', { field: 'passkey' });
    const { user, hash } = await pendingSignIn(this.p, mfaToken);
    const record = await this.p.secondFactors.find(user.id);
    // Turned off meanwhile (an admin's reset): the password alone no longer asks for a code; sign in again.
    if (methodsOf(record).length === 0 || record === null) throw expired();
    const method = await judgeGuess(this.p.throttle, codeKeys(user.id, client), () =>
      passkey !== undefined
        ? provePasskey(this.p, { response: passkey, rp: rp!, user, hash })
        : spendCode(this.p, record, code!),
    );
    if (method === null) throw passkey !== undefined ? wrongPasskey() : wrongCode();
    if (!(await this.p.mfaChallenges.take(hash, this.p.clock.now()))) throw expired();
    return issueSession(this.p, user);
  }
}
