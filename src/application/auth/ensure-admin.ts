import type { User } from '../../domain/index.js';
import { badRequest } from '../../domain/index.js';
import type { Core } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { assertValidPassword, assertValidUsername, newAccount } from './new-account.js';

type Port = Core['ensureAdmin'];
type Result = Awaited<ReturnType<Port['execute']>>;

const GENERATED_PASSWORD_LENGTH = 24;
const DEFAULT_ADMIN = 'admin';

export class EnsureAdmin implements Port {
  constructor(private readonly p: Pick<Ports, 'users' | 'tokens' | 'hasher' | 'ids' | 'secrets' | 'clock'>) {}

  async execute({ username, password }: Parameters<Port['execute']>[0]): Promise<Result> {
    if (username !== null && password !== null) return this.ensureConfigured(username, password);
    if (username !== null || password !== null) {
      throw badRequest('The admin username and password must be given together', {
        field: username === null ? 'username' : 'password',
      });
    }
    return this.ensureAnyAdmin();
  }

  /**
   * The configured credentials are authoritative: the account becomes an admin and its password becomes the
   * configured one, so an operator locked out can always get back in by restarting with the variables set.
   * A password change revokes the account's sessions, as an admin password change does. The operator chose this
   * password, so it is never one to be changed first (a new one clears an earlier request to change it).
   */
  private async ensureConfigured(username: string, password: string): Promise<Result> {
    assertValidUsername(username);
    assertValidPassword(password);
    const existing = await this.p.users.findByUsername(username);
    if (!existing) {
      const user = await newAccount(this.p, { username, password, type: 'admin' });
      return { created: true, username: user.username, generatedPassword: null };
    }
    const passwordMatches = existing.passwordHash !== null && (await this.p.hasher.verify(existing.passwordHash, password));
    if (existing.type !== 'admin') await this.p.users.setType(existing.id, 'admin', this.p.clock.now());
    if (!passwordMatches) {
      await this.p.users.update(existing.id, {
        passwordHash: await this.p.hasher.hash(password),
        mustChangePassword: false,
        updatedAt: this.p.clock.now(),
      });
      await this.p.tokens.deleteByUser(existing.id, 'session');
    }
    return { created: false, username: existing.username, generatedPassword: null };
  }

  /**
   * Without configured credentials, a fresh install still gets exactly one admin, with a one-time random password
   * that nobody chose: the admin is asked to replace it at the first sign-in.
   */
  private async ensureAnyAdmin(): Promise<Result> {
    if ((await this.p.users.countAdmins()) > 0) {
      const admin = (await this.p.users.list()).find((u) => u.type === 'admin');
      return { created: false, username: admin?.username ?? DEFAULT_ADMIN, generatedPassword: null };
    }
    const password = this.p.secrets.newSecret().slice(0, GENERATED_PASSWORD_LENGTH);
    const user = await this.createWithFreeName(password);
    return { created: true, username: user.username, generatedPassword: password };
  }

  private async createWithFreeName(password: string): Promise<User> {
    if (!(await this.p.users.findByUsername(DEFAULT_ADMIN))) {
      return newAccount(this.p, { username: DEFAULT_ADMIN, password, type: 'admin', mustChangePassword: true });
    }
    // 'admin' belongs to a plain user; a random suffix avoids it (and, in the unlikely case, another taken name).
    for (let attempt = 0; attempt < 10; attempt++) {
      const candidate = `${DEFAULT_ADMIN}-${this.p.ids.newId().slice(0, 4).toLowerCase()}`;
      if (!(await this.p.users.findByUsername(candidate))) {
        return newAccount(this.p, { username: candidate, password, type: 'admin', mustChangePassword: true });
      }
    }
    throw new Error('Could not find a free username for the initial admin');
  }
}
