import type { Limits, LimitKind } from '../domain/index.js';
import { effectiveLimits, limitReached, unauthorized } from '../domain/index.js';
import type { Ports } from './ports/index.js';

type Deps = Pick<Ports, 'users' | 'usage' | 'settings'>;

/** The user's maxima: their overrides over the configured defaults. */
export async function limitsOf(p: Deps, userId: string): Promise<Limits> {
  const user = await p.users.findById(userId);
  if (!user) throw unauthorized('The user no longer exists');
  return effectiveLimits(p.settings.defaultLimits, user.limits);
}

/** The refusal of a change that did not fit, with the maximum and what is in use (read now, for the message). */
export async function refusal(p: Pick<Ports, 'usage'>, userId: string, kind: LimitKind, max: number): Promise<Error> {
  const usage = await p.usage.get(userId);
  return limitReached(kind, max, usage[kind]);
}

/** One atomic conditional increment; limit_reached when it does not fit. */
export async function reserve(p: Deps, userId: string, kind: LimitKind, amount = 1): Promise<void> {
  const limits = await limitsOf(p, userId);
  if (!(await p.usage.reserve(userId, kind, amount, limits[kind]))) throw await refusal(p, userId, kind, limits[kind]);
}

/**
 * Reserves one unit of `kind`, runs `create`, and gives the unit back if `create` fails,
 * so `current` always equals what exists.
 */
export async function withReserved<T>(p: Deps, userId: string, kind: LimitKind, create: () => Promise<T>): Promise<T> {
  await reserve(p, userId, kind, 1);
  try {
    return await create();
  } catch (err) {
    await p.usage.release(userId, kind, 1);
    throw err;
  }
}
