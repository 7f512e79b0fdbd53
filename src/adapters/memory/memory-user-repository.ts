import { injectable } from 'inversify';
import { normalizeUsername, type OidcIdentity, type User, type UserType } from '../../domain/index.js';
import type {
  AdminCount,
  AdminGuarded,
  LinkOutcome,
  OwnPasswordChange,
  UnlinkOutcome,
  UserPatch,
  UserRepository,
} from '../../application/ports/index.js';
import { clone } from './clone.js';
import { compareCreated } from './order.js';

@injectable()
export class MemoryUserRepository implements UserRepository {
  private readonly rows = new Map<string, User>();
  /** Normalized username → id: the unique index that makes usernames case-insensitive. */
  private readonly byUsername = new Map<string, string>();
  /** Issuer and subject → id: the unique index of single sign-on identities. */
  private readonly byOidc = new Map<string, string>();

  async insert(user: User): Promise<boolean> {
    const key = normalizeUsername(user.username);
    const identity = user.oidc ? oidcKey(user.oidc) : null;
    if (this.rows.has(user.id) || this.byUsername.has(key)) return false;
    if (identity !== null && this.byOidc.has(identity)) return false;
    this.rows.set(user.id, clone(user));
    this.byUsername.set(key, user.id);
    if (identity !== null) this.byOidc.set(identity, user.id);
    return true;
  }

  async findByOidc(identity: OidcIdentity): Promise<User | null> {
    const id = this.byOidc.get(oidcKey(identity));
    return id === undefined ? null : clone(this.rows.get(id)!);
  }

  /** Check and write in one synchronous step, as MongoDB's unique index decides it. */
  async linkOidc(id: string, identity: OidcIdentity, updatedAt: Date): Promise<LinkOutcome> {
    const user = this.rows.get(id);
    if (!user) return 'missing';
    const key = oidcKey(identity);
    const holder = this.byOidc.get(key);
    if (holder !== undefined && holder !== id) return 'taken';
    if (user.oidc) this.byOidc.delete(oidcKey(user.oidc));
    user.oidc = { issuer: identity.issuer, subject: identity.subject };
    user.updatedAt = new Date(updatedAt);
    this.byOidc.set(key, id);
    return 'done';
  }

  async unlinkOidc(id: string, updatedAt: Date, needPassword: boolean): Promise<UnlinkOutcome> {
    const user = this.rows.get(id);
    if (!user) return 'missing';
    if (needPassword && user.passwordHash === null) return 'no_password';
    if (user.oidc) {
      this.byOidc.delete(oidcKey(user.oidc));
      user.oidc = null;
      user.updatedAt = new Date(updatedAt);
    }
    return 'done';
  }

  async findById(id: string): Promise<User | null> {
    const user = this.rows.get(id);
    return user ? clone(user) : null;
  }

  async findByUsername(username: string): Promise<User | null> {
    const id = this.byUsername.get(normalizeUsername(username));
    return id === undefined ? null : clone(this.rows.get(id)!);
  }

  async list(): Promise<User[]> {
    return [...this.rows.values()].sort(compareCreated).map(clone);
  }

  async update(id: string, patch: UserPatch): Promise<User | null> {
    const user = this.rows.get(id);
    if (!user) return null;
    if (patch.passwordHash !== undefined) {
      user.passwordHash = patch.passwordHash;
      user.credentialsEpoch += 1;
      user.keptSessionId = null;
    }
    if (patch.mustChangePassword !== undefined) user.mustChangePassword = patch.mustChangePassword;
    if (patch.limits !== undefined) user.limits = clone(patch.limits);
    user.updatedAt = new Date(patch.updatedAt);
    return clone(user);
  }

  /** Check and write in one synchronous step, as the MongoDB adapter's conditional update does. */
  async changeOwnPassword(id: string, change: OwnPasswordChange): Promise<User | null> {
    const user = this.rows.get(id);
    if (!user || user.credentialsEpoch !== change.fromEpoch) return null;
    user.passwordHash = change.passwordHash;
    user.credentialsEpoch += 1;
    user.keptSessionId = change.keptSessionId;
    user.mustChangePassword = false;
    user.updatedAt = new Date(change.updatedAt);
    return clone(user);
  }

  /** Check and write in one synchronous step, so no other call can come between them. */
  async setType(id: string, type: UserType, updatedAt: Date): Promise<AdminGuarded> {
    const user = this.rows.get(id);
    if (!user) return 'missing';
    if (user.type === type) return 'done';
    if (user.type === 'admin' && this.admins() <= 1) return 'last_admin';
    user.type = type;
    user.updatedAt = new Date(updatedAt);
    return 'done';
  }

  async delete(id: string): Promise<AdminGuarded> {
    const user = this.rows.get(id);
    if (!user) return 'missing';
    if (user.type === 'admin' && this.admins() <= 1) return 'last_admin';
    this.rows.delete(id);
    this.byUsername.delete(normalizeUsername(user.username));
    if (user.oidc) this.byOidc.delete(oidcKey(user.oidc));
    return 'done';
  }

  async countAdmins(): Promise<number> {
    return this.admins();
  }

  /** Memory has no second write to lose, so the count it decides on is always the records' own. */
  async checkAdminCount(): Promise<AdminCount> {
    const admins = this.admins();
    return { stored: admins, actual: admins };
  }

  private admins(): number {
    let admins = 0;
    for (const user of this.rows.values()) if (user.type === 'admin') admins++;
    return admins;
  }
}

/** One string per identity; the issuer is a URL, which holds no newline. */
function oidcKey(identity: OidcIdentity): string {
  return `${identity.issuer}\n${identity.subject}`;
}
