import { injectable } from 'inversify';
import { normalizeUsername, type User, type UserType } from '../../domain/index.js';
import type {
  AdminCount,
  AdminGuarded,
  OwnPasswordChange,
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

  async insert(user: User): Promise<boolean> {
    const key = normalizeUsername(user.username);
    if (this.rows.has(user.id) || this.byUsername.has(key)) return false;
    this.rows.set(user.id, clone(user));
    this.byUsername.set(key, user.id);
    return true;
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
