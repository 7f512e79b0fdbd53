import type { Actor, Limits, LimitKind } from '../../domain/index.js';
import { effectiveLimits, limitReached } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';

type Deps = Pick<Ports, 'usage' | 'settings'>;

/**
 * The caller's maxima: their overrides (read with their token, so no command of its own) over the configured
 * defaults. They only name the bound; each change is still one conditional update against it.
 */
export function limitsOf(p: Pick<Ports, 'settings'>, actor: Actor): Limits {
  return effectiveLimits(p.settings.defaultLimits, actor.limits);
}

/** The refusal of a change that did not fit, with the maximum and what is in use (read now, for the message). */
export async function refusal(p: Pick<Ports, 'usage'>, userId: string, kind: LimitKind, max: number): Promise<Error> {
  const usage = await p.usage.get(userId);
  return limitReached(kind, max, usage[kind]);
}

/** One atomic conditional increment; limit_reached when it does not fit. */
export async function reserve(p: Deps, actor: Actor, kind: LimitKind, amount = 1): Promise<void> {
  const max = limitsOf(p, actor)[kind];
  if (!(await p.usage.reserve(actor.userId, kind, amount, max))) throw await refusal(p, actor.userId, kind, max);
}
