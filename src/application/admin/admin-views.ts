import type { User } from '../../domain/index.js';
import { effectiveLimits } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';
import { adminUserView, mfaView, type AdminUserView } from '../views.js';

/** A user's usage record as admins see it: counters against their effective maxima. */
export async function adminRecord(
  p: Pick<Ports, 'usage' | 'settings' | 'secondFactors'>,
  user: User,
): Promise<AdminUserView> {
  const [usage, factors] = await Promise.all([p.usage.get(user.id), p.secondFactors.find(user.id)]);
  return adminUserView(user, usage, effectiveLimits(p.settings.defaultLimits, user.limits), mfaView(factors));
}
