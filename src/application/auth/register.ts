import { forbidden } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { issueSession } from './issue-session.js';
import { newAccount } from './new-account.js';

type Port = Core['register'];

export class Register implements Port {
  constructor(private readonly p: Pick<Ports, 'users' | 'hasher' | 'tokens' | 'secrets' | 'ids' | 'clock' | 'settings'>) {}

  /** Self-service sign-up creates a plain user and logs them straight in. */
  async execute({ username, password }: Parameters<Port['execute']>[0]) {
    if (this.p.settings.registration === 'closed') throw forbidden('Registration is closed');
    // An account with a password that could not sign in with it: new people come through single sign-on instead.
    if (this.p.settings.passwordLogin !== 'enabled') throw forbidden('Registration is closed: sign in with single sign-on');
    const user = await newAccount(this.p, { username, password, type: 'user' });
    return issueSession(this.p, user);
  }
}
