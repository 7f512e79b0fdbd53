import { inject, injectable } from 'inversify';
import type { Collection, Db } from 'mongodb';
import { LIMIT_KINDS, normalizeUsername, type LimitOverrides, type User, type UserType } from '../../domain/index.js';
import type { UserPatch, UserRepository } from '../../application/ports/index.js';
import { isDuplicateKey } from './duplicate-key.js';
import { COLLECTIONS, MongoDb } from './mongo-database.js';
import { BY_CREATED } from './named-query.js';

interface UserDoc {
  _id: string;
  username: string;
  /** The unique index: usernames are compared without regard to case. */
  usernameLower: string;
  type: UserType;
  passwordHash: string;
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
    limits: copyLimits(user.limits),
    createdAt: new Date(user.createdAt),
    updatedAt: new Date(user.updatedAt),
  };
}

function toUser(doc: UserDoc): User {
  return {
    id: doc._id,
    username: doc.username,
    type: doc.type,
    passwordHash: doc.passwordHash,
    limits: copyLimits(doc.limits ?? {}),
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

@injectable()
export class MongoUserRepository implements UserRepository {
  private readonly users: Collection<UserDoc>;

  constructor(@inject(MongoDb) db: Db) {
    this.users = db.collection<UserDoc>(COLLECTIONS.users);
  }

  async insert(user: User): Promise<boolean> {
    try {
      await this.users.insertOne(toDoc(user));
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  async findById(id: string): Promise<User | null> {
    const doc = await this.users.findOne({ _id: id });
    return doc ? toUser(doc) : null;
  }

  async findByUsername(username: string): Promise<User | null> {
    const doc = await this.users.findOne({ usernameLower: normalizeUsername(username) });
    return doc ? toUser(doc) : null;
  }

  async list(): Promise<User[]> {
    return (await this.users.find().sort(BY_CREATED).toArray()).map(toUser);
  }

  async update(id: string, patch: UserPatch): Promise<User | null> {
    const set: Partial<UserDoc> = { updatedAt: new Date(patch.updatedAt) };
    if (patch.type !== undefined) set.type = patch.type;
    if (patch.passwordHash !== undefined) set.passwordHash = patch.passwordHash;
    if (patch.limits !== undefined) set.limits = copyLimits(patch.limits);
    const doc = await this.users.findOneAndUpdate({ _id: id }, { $set: set }, { returnDocument: 'after' });
    return doc ? toUser(doc) : null;
  }

  async delete(id: string): Promise<boolean> {
    return (await this.users.deleteOne({ _id: id })).deletedCount === 1;
  }

  async countAdmins(): Promise<number> {
    return this.users.countDocuments({ type: 'admin' });
  }
}
