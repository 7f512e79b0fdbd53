import type { User } from '../../domain/index.js';
import { effectiveLimits } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';
import { adminUserView, type AdminUserView } from '../views.js';

/** A user's usage record as admins see it: counters against their effective maxima. */
export async function adminRecord(p: Pick<Ports, 'usage' | 'settings'>, user: User): Promise<AdminUserView> {
  const usage = await p.usage.get(user.id);
  return adminUserView(user, usage, effectiveLimits(p.settings.defaultLimits, user.limits));
}
