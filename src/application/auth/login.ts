import { badRequest, DomainError } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { issueSession } from './issue-session.js';

type Port = Core['login'];

const invalidCredentials = () => new DomainError('unauthorized', 'Invalid username or password');

export class Login implements Port {
  /** A real argon2 hash to verify against when the user is unknown, so both failures cost the same time. */
  private dummyHash: Promise<string> | null = null;

  constructor(private readonly p: Pick<Ports, 'users' | 'hasher' | 'tokens' | 'secrets' | 'ids' | 'clock' | 'settings'>) {}

  async execute({ username, password }: Parameters<Port['execute']>[0]) {
    if (username === '') throw badRequest('username is required', { field: 'username' });
    if (password === '') throw badRequest('password is required', { field: 'password' });
    const user = await this.p.users.findByUsername(username);
    if (!user) {
      await this.p.hasher.verify(await this.dummy(), password);
      throw invalidCredentials();
    }
    if (!(await this.p.hasher.verify(user.passwordHash, password))) throw invalidCredentials();
    return issueSession(this.p, user);
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= this.p.hasher.hash(this.p.secrets.newSecret());
    return this.dummyHash;
  }
}
