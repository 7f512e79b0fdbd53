import { DomainError, isDomainError } from '../../../domain/index.js';
import type { Core } from '../../contract.js';
import { ssoError, ssoFailureOf, type PendingSignIn, type Ports } from '../../ports/index.js';
import type { SsoOutcome } from '../../views.js';
import { issueSession } from '../issue-session.js';
import { ssoAccount } from './sso-account.js';

type Port = Core['finishSso'];

const expired = () => ssoError('expired', 'This sign-in has expired or was already used; start it again');

export class FinishSso implements Port {
  constructor(
    private readonly p: Pick<
      Ports,
      'identityProvider' | 'pendingSignIns' | 'users' | 'tokens' | 'secrets' | 'ids' | 'clock' | 'settings'
    >,
  ) {}

  async execute({ query, state, browserKey }: Parameters<Port['execute']>[0]): Promise<SsoOutcome> {
    const sso = this.p.settings.sso;
    if (!sso) throw ssoError('off', 'Single sign-on is not configured here');
    if (!state) throw expired();
    // Taken before anything else, whatever follows: a state is good for one answer only.
    const pending = await this.p.pendingSignIns.take(this.p.secrets.hash(state), this.p.clock.now());
    // Another browser's sign-in (a callback link passed on to someone) is refused as if it did not exist.
    if (!pending || browserKey === null || pending.browserHash !== this.p.secrets.hash(browserKey)) throw expired();
    try {
      const identity = await this.p.identityProvider.finish(query, {
        state,
        nonce: pending.nonce,
        verifier: pending.verifier,
        redirectUri: pending.redirectUri,
      });
      if (pending.intent === 'link') return await this.link(pending, identity);
      const user = await ssoAccount(this.p, identity, sso);
      // Second factors are the provider's business: Coffer's own (TOTP) guard password sign-ins only.
      return { intent: 'login', session: await issueSession(this.p, user), next: pending.next };
    } catch (err) {
      throw isDomainError(err) ? new DomainError(err.code, err.message, { ...err.details, sso: ssoFailureOf(err), intent: pending.intent }) : err;
    }
  }

  private async link(pending: PendingSignIn, identity: { issuer: string; subject: string }): Promise<SsoOutcome> {
    const key = { issuer: identity.issuer, subject: identity.subject };
    const outcome = await this.p.users.linkOidc(pending.userId!, key, this.p.clock.now());
    if (outcome === 'missing') throw ssoError('signed_out', 'The account that asked for the link no longer exists');
    if (outcome === 'taken') throw ssoError('taken', 'This single sign-on account is already linked to another account');
    return { intent: 'link', next: pending.next };
  }
}
