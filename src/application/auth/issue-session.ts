import type { SessionLifetime, Token, User } from '../../domain/index.js';
import { firstExpiry } from '../../domain/index.js';
import type { CoreSettings, Ports } from '../ports/index.js';
import type { LoginResult } from '../views.js';

type Deps = Pick<Ports, 'tokens' | 'secrets' | 'ids' | 'clock' | 'settings'>;

export function sessionLifetime(settings: CoreSettings): SessionLifetime {
  return { idleMs: settings.sessionTtlMs, maxMs: settings.sessionMaxMs };
}

/**
 * Starts a session for a user whose credentials are already proven: the secret is returned once, only its hash is
 * kept. `user` must be the record the password was checked against, so the session carries the epoch of that password.
 */
export async function issueSession(p: Deps, user: User): Promise<LoginResult> {
  const secret = p.secrets.newSecret();
  const now = p.clock.now();
  const token: Token = {
    id: p.ids.newId(),
    userId: user.id,
    type: 'session',
    name: 'session',
    hash: p.secrets.hash(secret),
    createdAt: now,
    expiresAt: firstExpiry(now, sessionLifetime(p.settings)),
    credentialsEpoch: user.credentialsEpoch,
  };
  await p.tokens.insert(token);
  return { token: secret, user: { id: user.id, username: user.username } };
}
