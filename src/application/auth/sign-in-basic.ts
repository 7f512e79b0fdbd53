import type { Actor } from '../../domain/index.js';
import { DomainError, isDomainError, normalizeUsername } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import type { Authenticate } from './authenticate.js';
import { judgeGuess } from './judge-guess.js';
import { methodsOf } from './mfa/codes.js';
import { loginKeys } from './throttle-rules.js';

type Port = Core['signInBasic'];

const refused = () => new DomainError('unauthorized', 'Invalid username or password (or dav token)');

// Our tokens are 43 base64url characters; nothing longer is looked up as one.
const MAX_TOKEN_LENGTH = 512;

/**
 * WebDAV clients know one credential: a user name and a password, sent with every request. The password is a `dav`
 * token of that user (one hash lookup), or else the account's password, judged under the login throttle, for a user
 * without a second factor only: a WebDAV client cannot ask for a code, and a password alone must not do what a login
 * would need a code for. The caller is a `dav` actor either way: folders and files, nothing else.
 */
export class SignInBasic implements Port {
  constructor(
    private readonly p: Pick<Ports, 'users' | 'hasher' | 'settings' | 'throttle' | 'secondFactors' | 'secrets'>,
    private readonly authenticate: Pick<Authenticate, 'execute'>,
  ) {}

  async execute({ username, password, client }: Parameters<Port['execute']>[0]): Promise<Actor> {
    if (username === '' || password === '') throw refused();
    const byToken = await this.byToken(username, password);
    if (byToken) return byToken;
    if (this.p.settings.passwordLogin !== 'enabled') throw refused();
    const user = await judgeGuess(this.p.throttle, loginKeys(username, client), async () => {
      const found = await this.p.users.findByUsername(username);
      if (!found?.passwordHash) return null;
      return (await this.p.hasher.verify(found.passwordHash, password)) ? found : null;
    });
    if (!user) throw refused();
    if (methodsOf(await this.p.secondFactors.find(user.id)).length > 0) {
      throw new DomainError('unauthorized', 'This account has a second factor: sign in to WebDAV with a dav token');
    }
    return { userId: user.id, userType: user.type, via: 'dav', tokenId: 'password', limits: user.limits };
  }

  /** The caller of a dav token whose owner is `username`; null when the password is no such token. */
  private async byToken(username: string, password: string): Promise<Actor | null> {
    if (password.length > MAX_TOKEN_LENGTH) return null;
    try {
      const actor = await this.authenticate.execute({ token: password, dav: true });
      const user = await this.p.users.findById(actor.userId);
      return user && normalizeUsername(user.username) === normalizeUsername(username) ? actor : null;
    } catch (err) {
      if (isDomainError(err) && (err.code === 'unauthorized' || err.code === 'forbidden')) return null;
      throw err;
    }
  }
}
