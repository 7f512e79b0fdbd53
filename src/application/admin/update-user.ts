import type { LimitOverrides } from '../../domain/index.js';
import { assertAdmin, badRequest, conflict, isValidLimitValue, LIMIT_KINDS, notFound } from '../../domain/index.js';
import type { Core, LimitChanges } from '../contract.js';
import type { Ports, UserPatch } from '../ports/index.js';
import { assertValidPassword, assertValidUserType } from '../auth/new-account.js';
import { adminRecord } from './admin-views.js';
import { findUser } from './find-user.js';

type Port = Core['updateUser'];

/** A number sets a per-user maximum; null removes the override so the configured default applies again. */
function applyLimitChanges(current: LimitOverrides, changes: LimitChanges): LimitOverrides {
  const next: LimitOverrides = { ...current };
  for (const [kind, value] of Object.entries(changes)) {
    const field = `limits.${kind}`;
    if (!(LIMIT_KINDS as readonly string[]).includes(kind)) throw badRequest(`Unknown limit ${kind}`, { field });
    const limit = kind as (typeof LIMIT_KINDS)[number];
    if (value === null) delete next[limit];
    else if (value === undefined) continue;
    else if (isValidLimitValue(value)) next[limit] = value;
    else throw badRequest(`${field} must be a non-negative integer or null`, { field });
  }
  return next;
}

export class UpdateUser implements Port {
  constructor(private readonly p: Pick<Ports, 'secondFactors' | 'users' | 'tokens' | 'usage' | 'settings' | 'hasher' | 'clock'>) {}

  /** Everything that can be refused is checked before the first write; the type goes first, as it can still be. */
  async execute({ actor, id, type, password, limits }: Parameters<Port['execute']>[0]) {
    assertAdmin(actor);
    if (type !== undefined) assertValidUserType(type);
    if (password !== undefined) assertValidPassword(password);
    const user = await findUser(this.p, id);
    const patch: UserPatch = { updatedAt: this.p.clock.now() };
    if (limits !== undefined) patch.limits = applyLimitChanges(user.limits, limits);
    if (password !== undefined) {
      patch.passwordHash = await this.p.hasher.hash(password);
      // A password set for someone else is one they did not choose; an admin setting their own did choose it.
      patch.mustChangePassword = id !== actor.userId;
    }
    if (type !== undefined) {
      const changed = await this.p.users.setType(id, type, patch.updatedAt);
      if (changed === 'last_admin') throw conflict('The last admin cannot be demoted');
      if (changed === 'missing') throw notFound('User');
    }
    const updated = await this.p.users.update(id, patch);
    if (!updated) throw notFound('User');
    // A new password ends every session the old one opened; API tokens are separate credentials and survive.
    if (password !== undefined) await this.p.tokens.deleteByUser(id, 'session');
    return adminRecord(this.p, updated);
  }
}
