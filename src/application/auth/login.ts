import { badRequest, DomainError, forbidden } from '../../domain/index.js';
import type { Core } from '../contract.js';
import { judgeGuess } from './judge-guess.js';
import type { Ports } from '../ports/index.js';
import { loginKeys } from './throttle-rules.js';
import { issueSession } from './issue-session.js';
import { methodsOf } from './mfa/codes.js';
import { startMfaChallenge } from './mfa/login-mfa.js';

type Port = Core['login'];

const invalidCredentials = () => new DomainError('unauthorized', 'Invalid username or password');

/**
 * A right password for a user with a second factor answers an mfaToken instead of a session.
 * An unknown user and a wrong password cost the same work and get the same answer: both are throttled under the
 * same keys (the name is counted whether or not it exists) and both verify one argon2 hash.
 */
export class Login implements Port {
  /** A hash made by the same hasher as every password's, so verifying it costs what verifying a real one does. */
  private dummyHash: Promise<string> | null = null;

  constructor(
    private readonly p: Pick<
      Ports,
      'users' | 'hasher' | 'tokens' | 'secrets' | 'ids' | 'clock' | 'settings' | 'throttle' | 'secondFactors' | 'mfaChallenges'
    >,
  ) {}

  async execute({ username, password, client }: Parameters<Port['execute']>[0]) {
    if (username === '') throw badRequest('username is required', { field: 'username' });
    if (password === '') throw badRequest('password is required', { field: 'password' });
    if (this.p.settings.passwordLogin === 'disabled') throw forbidden(`Password sign-in is turned off here: ${this.ssoHint()}`);
    const user = await judgeGuess(this.p.throttle, loginKeys(username, client), async () => {
      const found = await this.p.users.findByUsername(username);
      // A user without a password (single sign-on) costs and answers exactly what a wrong password does.
      if (found?.passwordHash) return (await this.p.hasher.verify(found.passwordHash, password)) ? found : null;
      await this.p.hasher.verify(await this.dummy(), password);
      return null;
    });
    if (!user) throw invalidCredentials();
    // Told only after the password proved right: a wrong one is still the same 401 for everybody.
    if (this.p.settings.passwordLogin === 'admins' && user.type !== 'admin') {
      throw forbidden(`Password sign-in is for admins only here: ${this.ssoHint()}`);
    }
    // `user` is the record whose hash was checked: the session takes that record's credentialsEpoch, so a password
    // change landing while the hash was being checked leaves this session dead on arrival.
    const session = await issueSession(this.p, user);
    // A user with a second factor gets no session: a challenge for the code (POST /api/auth/login/mfa). Read once, after
    // the insert, this also covers TOTP turned on meanwhile: a confirmation written before this read is seen here, and
    // one written after it sweeps the user's other sessions after the insert, this one included.
    const methods = methodsOf(await this.p.secondFactors.find(user.id));
    if (methods.length === 0) return session;
    const stored = await this.p.tokens.findByHash(this.p.secrets.hash(session.token));
    if (stored) await this.p.tokens.delete(stored.id);
    return startMfaChallenge(this.p, user, methods);
  }

  private ssoHint(): string {
    const label = this.p.settings.sso?.label;
    return label ? `use “Sign in with ${label}” (single sign-on)` : 'use single sign-on';
  }

  private dummy(): Promise<string> {
    if (!this.dummyHash) {
      const made = this.p.hasher.hash(this.p.secrets.newSecret());
      // A failed attempt (the hasher was too busy) must not stay cached: the next unknown user tries again.
      made.catch(() => {
        if (this.dummyHash === made) this.dummyHash = null;
      });
      this.dummyHash = made;
    }
    return this.dummyHash;
  }
}
