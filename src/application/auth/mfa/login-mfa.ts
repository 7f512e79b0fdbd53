import { badRequest, DomainError, type User } from '../../../domain/index.js';
import type { Core } from '../../contract.js';
import type { Ports } from '../../ports/index.js';
import type { MfaRequiredView } from '../../views.js';
import { issueSession } from '../issue-session.js';
import { judgeGuess } from '../judge-guess.js';
import { codeKeys } from '../throttle-rules.js';
import { methodsOf, spendCode } from './codes.js';

type Port = Core['loginMfa'];

/** How long a sign-in waits for its second factor. */
export const MFA_TOKEN_TTL_MS = 5 * 60_000;

const expired = () => new DomainError('unauthorized', 'The sign-in has expired or was used; sign in again');
const wrongCode = () => new DomainError('unauthorized', 'The code is wrong');

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
 * The second step of a sign-in: the mfaToken and a TOTP or recovery code. Wrong codes are throttled per account as
 * passwords are and leave the mfaToken usable until it expires; the right one spends the code and the token (each
 * once, whatever races it) and answers what a login answers.
 */
export class LoginMfa implements Port {
  constructor(
    private readonly p: Pick<
      Ports,
      'users' | 'tokens' | 'secondFactors' | 'mfaChallenges' | 'codes' | 'secrets' | 'ids' | 'clock' | 'settings' | 'throttle'
    >,
  ) {}

  async execute({ mfaToken, code, client }: Parameters<Port['execute']>[0]) {
    if (mfaToken === '') throw badRequest('mfaToken is required', { field: 'mfaToken' });
    if (code.trim() === '') throw badRequest('code is required', { field: 'code' });
    const hash = this.p.secrets.hash(mfaToken);
    const challenge = await this.p.mfaChallenges.find(hash, this.p.clock.now());
    if (!challenge) throw expired();
    const user = await this.p.users.findById(challenge.userId);
    // A password changed since the challenge was made voids it, as it voids sessions of the old password.
    if (!user || user.credentialsEpoch !== challenge.credentialsEpoch) throw expired();
    const record = await this.p.secondFactors.find(user.id);
    // Turned off meanwhile (an admin's reset): the password alone no longer asks for a code; sign in again.
    if (methodsOf(record).length === 0 || record === null) throw expired();
    const method = await judgeGuess(this.p.throttle, codeKeys(user.id, client), () => spendCode(this.p, record, code));
    if (method === null) throw wrongCode();
    if (!(await this.p.mfaChallenges.take(hash, this.p.clock.now()))) throw expired();
    return issueSession(this.p, user);
  }
}
