import { isLocalPath } from '../../../domain/index.js';
import type { Core } from '../../contract.js';
import { ssoError, type Ports } from '../../ports/index.js';

type Port = Core['startSso'];

/** How long a sign-in may spend at the provider. */
export const PENDING_SIGN_IN_TTL_MS = 10 * 60_000;

const HOME = { login: '/', link: '/account' } as const;

export class StartSso implements Port {
  constructor(private readonly p: Pick<Ports, 'identityProvider' | 'pendingSignIns' | 'secrets' | 'clock' | 'settings'>) {}

  async execute({ actor, next, intent, redirectUri }: Parameters<Port['execute']>[0]) {
    if (!this.p.settings.sso) throw ssoError('off', 'Single sign-on is not configured here');
    // Linking attaches an identity to the account of the session that asked; an API token never links.
    if (intent === 'link' && actor?.via !== 'session') {
      throw ssoError('signed_out', 'Sign in first, then link your single sign-on account from Account');
    }
    const request = await this.p.identityProvider.begin(redirectUri);
    const browserKey = this.p.secrets.newSecret();
    await this.p.pendingSignIns.insert({
      stateHash: this.p.secrets.hash(request.state),
      browserHash: this.p.secrets.hash(browserKey),
      nonce: request.nonce,
      verifier: request.verifier,
      redirectUri,
      next: next !== null && isLocalPath(next) ? next : HOME[intent],
      intent,
      userId: intent === 'link' ? actor!.userId : null,
      expiresAt: new Date(this.p.clock.now().getTime() + PENDING_SIGN_IN_TTL_MS),
    });
    return { url: request.url, browserKey };
  }
}
