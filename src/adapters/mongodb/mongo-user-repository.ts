import { inject, injectable } from 'inversify';
import type { Collection, Db, Filter } from 'mongodb';
import {
  LIMIT_KINDS,
  normalizeUsername,
  type LimitOverrides,
  type OidcIdentity,
  type User,
  type UserType,
} from '../../domain/index.js';
import type {
  AdminCount,
  AdminGuarded,
  LinkOutcome,
  OwnPasswordChange,
  UnlinkOutcome,
  UserPatch,
  UserRepository,
} from '../../application/ports/index.js';
import { AdminSeats } from './admin-seats.js';
import { isDuplicateKey } from './duplicate-key.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';
import { BY_CREATED } from './named-query.js';

export interface UserDoc {
  _id: string;
  username: string;
  /** The unique index: usernames are compared without regard to case. */
  usernameLower: string;
  type: UserType;
  /** Null: no password (a user made by single sign-on). */
  passwordHash: string | null;
  /** Unique where present (a sparse index); absent, or null on documents of an earlier build: none. */
  oidc?: OidcIdentity | null;
  /** Absent on users from before epochs: 0, as their sessions are. */
  credentialsEpoch?: number;
  /** Absent on users from before own password changes: null. */
  keptSessionId?: string | null;
  /** Absent on users from before it existed: false, as nobody asked them to change anything. */
  mustChangePassword?: boolean;
  limits: LimitOverrides;
  createdAt: Date;
  updatedAt: Date;
}

function toDoc(user: User): UserDoc {
  return {
    _id: user.id,
    username: user.username,
    usernameLower: normalizeUsername(user.username),
    type: user.type,
    passwordHash: user.passwordHash,
    credentialsEpoch: user.credentialsEpoch,
    keptSessionId: user.keptSessionId,
    mustChangePassword: user.mustChangePassword,
    limits: copyLimits(user.limits),
    // Absent, never null, without an identity: the sparse unique index leaves such documents out.
    ...(user.oidc ? { oidc: { issuer: user.oidc.issuer, subject: user.oidc.subject } } : {}),
    createdAt: new Date(user.createdAt),
    updatedAt: new Date(user.updatedAt),
  };
}

export function toUser(doc: UserDoc): User {
  return {
    id: doc._id,
    username: doc.username,
    type: doc.type,
    passwordHash: doc.passwordHash,
    credentialsEpoch: doc.credentialsEpoch ?? 0,
    keptSessionId: doc.keptSessionId ?? null,
    mustChangePassword: doc.mustChangePassword ?? false,
    limits: copyLimits(doc.limits ?? {}),
    oidc: doc.oidc ? { issuer: doc.oidc.issuer, subject: doc.oidc.subject } : null,
    createdAt: new Date(doc.createdAt),
    updatedAt: new Date(doc.updatedAt),
  };
}

/** Only the known kinds, and only those that are set: an absent kind means "use the default". */
function copyLimits(limits: LimitOverrides): LimitOverrides {
  const out: LimitOverrides = {};
  for (const kind of LIMIT_KINDS) {
    const value = limits[kind];
    if (value !== undefined && value !== null) out[kind] = value;
  }
  return out;
}

/** Enough for any honest contention; an endless flip-flop of one user's type is a bug, not a race. */
const TYPE_CHANGE_ATTEMPTS = 10;

@injectable()
export class MongoUserRepository implements UserRepository {
  private readonly users: Collection<UserDoc>;
  private readonly seats: AdminSeats;

  constructor(@inject(MongoDb) db: Db) {
    this.users = db.collection<UserDoc>(COLLECTIONS.users);
    this.seats = new AdminSeats(db, () => this.countAdmins());
  }

  async insert(user: User): Promise<boolean> {
    if (user.type === 'admin') await this.seats.ensure();
    try {
      await this.users.insertOne(toDoc(user));
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
    if (user.type === 'admin') await this.seats.add();
    return true;
  }

  async findById(id: string): Promise<User | null> {
    const doc = await this.users.findOne({ _id: id });
    return doc ? toUser(doc) : null;
  }

  async findByUsername(username: string): Promise<User | null> {
    const doc = await this.users.findOne({ usernameLower: normalizeUsername(username) });
    return doc ? toUser(doc) : null;
  }

  async findByOidc(identity: OidcIdentity): Promise<User | null> {
    const doc = await this.users.findOne({ 'oidc.issuer': identity.issuer, 'oidc.subject': identity.subject });
    return doc ? toUser(doc) : null;
  }

  async linkOidc(id: string, identity: OidcIdentity, updatedAt: Date): Promise<LinkOutcome> {
    const oidc = { issuer: identity.issuer, subject: identity.subject };
    try {
      const { matchedCount } = await this.users.updateOne({ _id: id }, { $set: { oidc, updatedAt: new Date(updatedAt) } });
      return matchedCount === 1 ? 'done' : 'missing';
    } catch (err) {
      // The unique index on the identity: another user holds it, and nothing was written.
      if (isDuplicateKey(err)) return 'taken';
      throw err;
    }
  }

  /** One conditional write: only a user with a password loses the identity. */
  async unlinkOidc(id: string, updatedAt: Date, needPassword: boolean): Promise<UnlinkOutcome> {
    const { matchedCount } = await this.users.updateOne(
      needPassword ? { _id: id, passwordHash: { $type: 'string' } } : { _id: id },
      { $unset: { oidc: '' }, $set: { updatedAt: new Date(updatedAt) } },
    );
    if (matchedCount === 1) return 'done';
    return (await this.users.countDocuments({ _id: id }, { limit: 1 })) === 1 ? 'no_password' : 'missing';
  }

  async list(): Promise<User[]> {
    return (await this.users.find().sort(BY_CREATED).toArray()).map(toUser);
  }

  async update(id: string, patch: UserPatch): Promise<User | null> {
    const set: Partial<UserDoc> = { updatedAt: new Date(patch.updatedAt) };
    if (patch.passwordHash !== undefined) {
      set.passwordHash = patch.passwordHash;
      set.keptSessionId = null;
    }
    if (patch.mustChangePassword !== undefined) set.mustChangePassword = patch.mustChangePassword;
    if (patch.limits !== undefined) set.limits = copyLimits(patch.limits);
    // The hash and its epoch change in one write: a login reads both from one document, old or new together.
    const bump = patch.passwordHash !== undefined ? { $inc: { credentialsEpoch: 1 } } : {};
    const doc = await this.users.findOneAndUpdate({ _id: id }, { $set: set, ...bump }, { returnDocument: 'after' });
    return doc ? toUser(doc) : null;
  }

  /** A user from before epochs stores none and counts as epoch 0, so `fromEpoch` 0 matches it too. */
  async changeOwnPassword(id: string, change: OwnPasswordChange): Promise<User | null> {
    const epoch: Filter<UserDoc> =
      change.fromEpoch === 0
        ? { $or: [{ credentialsEpoch: 0 }, { credentialsEpoch: { $exists: false } }] }
        : { credentialsEpoch: change.fromEpoch };
    const doc = await this.users.findOneAndUpdate(
      { _id: id, ...epoch },
      {
        $set: {
          passwordHash: change.passwordHash,
          keptSessionId: change.keptSessionId,
          mustChangePassword: false,
          updatedAt: new Date(change.updatedAt),
        },
        $inc: { credentialsEpoch: 1 },
      },
      { returnDocument: 'after' },
    );
    return doc ? toUser(doc) : null;
  }

  async setType(id: string, type: UserType, updatedAt: Date): Promise<AdminGuarded> {
    return this.retried(id, async (current) => {
      if (current === type) return 'done';
      const change = { $set: { type, updatedAt: new Date(updatedAt) } };
      if (type === 'admin') {
        await this.seats.ensure();
        if ((await this.users.updateOne({ _id: id, type: current }, change)).matchedCount === 0) return 'stale';
        await this.seats.add();
        return 'done';
      }
      return this.withSeat(id, async () => (await this.users.updateOne({ _id: id, type: 'admin' }, change)).matchedCount);
    });
  }

  async delete(id: string): Promise<AdminGuarded> {
    return this.retried(id, async (current) => {
      if (current === 'admin') {
        return this.withSeat(id, async () => (await this.users.deleteOne({ _id: id, type: 'admin' })).deletedCount);
      }
      return (await this.users.deleteOne({ _id: id, type: { $ne: 'admin' } })).deletedCount === 1 ? 'done' : 'stale';
    });
  }

  async countAdmins(): Promise<number> {
    return this.users.countDocuments({ type: 'admin' });
  }

  async checkAdminCount(fix: boolean): Promise<AdminCount> {
    return this.seats.check(fix);
  }

  /** Each write is conditional on the type it read; another change in between makes it read and try again. */
  private async retried(
    id: string,
    attempt: (current: UserType) => Promise<AdminGuarded | 'stale'>,
  ): Promise<AdminGuarded> {
    for (let round = 0; round < TYPE_CHANGE_ATTEMPTS; round++) {
      const doc = await this.users.findOne({ _id: id }, { projection: { type: 1 } });
      if (!doc) return 'missing';
      const outcome = await attempt(doc.type);
      if (outcome !== 'stale') return outcome;
    }
    throw new Error(`The type of user ${id} kept changing under concurrent updates`);
  }

  /** Removes an admin (`write` answers how many records it changed) only after taking a seat from the count. */
  private async withSeat(id: string, write: () => Promise<number>): Promise<AdminGuarded | 'stale'> {
    if (!(await this.seats.take())) return 'last_admin';
    let written: number;
    try {
      written = await write();
    } catch (err) {
      // A failed write may have been applied all the same (its answer lost): the seat goes back only when the
      // record shows the admin still there. Unsure, it stays taken, which errs on the safe side.
      const still = await this.users.findOne({ _id: id, type: 'admin' }, { projection: { _id: 1 } }).catch(() => null);
      if (still) await this.seats.add().catch(() => undefined);
      throw err;
    }
    if (written === 1) return 'done';
    await this.seats.add();
    return 'stale';
  }
}
