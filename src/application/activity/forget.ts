import type { Ports } from '../ports/index.js';

/**
 * A deleted share's or request's events go with it. Called once the record is gone; a failure here leaves events
 * nobody can reach through their share or request any more, and retention removes them, so it never fails the
 * delete that already happened.
 */
export async function forgetActivity(
  p: Pick<Ports, 'activityLog' | 'mailNotices'>,
  target: { shareIds?: readonly string[]; requestIds?: readonly string[] },
): Promise<void> {
  if ((target.shareIds?.length ?? 0) === 0 && (target.requestIds?.length ?? 0) === 0) return;
  await p.activityLog.removeFor(target).catch(() => undefined);
  const keys = [...(target.shareIds ?? []).map((id) => `share:${id}` as const), ...(target.requestIds ?? []).map((id) => `request:${id}` as const)];
  await p.mailNotices.forget(keys).catch(() => undefined);
}
