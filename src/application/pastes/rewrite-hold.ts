import type { HeldAmounts, Ports } from '../ports/index.js';

/**
 * Ends the hold of a paste rewrite that changed its size (task `rewrite`), only while it still names `by`: landed, a
 * growth stays counted (the hold is settled) and a shrinkage goes back (released); not landed, the other way round.
 * Ended by anyone but the rewrite itself (`marked`), a release is marked given back, so the rewrite, should it find
 * its hold gone, can tell how it was ended (endedAsLanded). `ended`: whether this call found the hold.
 */
export async function endRewrite(
  p: Pick<Ports, 'usage'>,
  userId: string,
  holdId: string,
  grows: boolean,
  landed: boolean,
  by: string | undefined,
  marked: boolean,
): Promise<{ outcome: 'settled' | 'released'; ended: boolean }> {
  const when = { by, kind: 'rewrite' as const };
  if (landed === grows) return { outcome: 'settled', ended: (await p.usage.settleHold(userId, holdId, when)) !== null };
  return { outcome: 'released', ended: await p.usage.releaseHold(userId, holdId, when, marked ? 'given back' : undefined) };
}

/**
 * Whether the rewrite whose hold someone else ended (the sweep, its instance taken for dead; a delete of the paste)
 * was ended as landed: a growth kept (settled, unmarked), a shrinkage given back (marked).
 */
export async function endedAsLanded(p: Pick<Ports, 'usage'>, userId: string, holdId: string, grows: boolean): Promise<boolean> {
  return (await p.usage.wasGivenBack(userId, holdId)) !== grows;
}

/**
 * A rewrite cut by its instance's death: it landed when the paste names its hold (`Paste.rewrites`). A paste deleted
 * since names nothing, but its delete ended, before the paste went, the rewrites the paste named, so a rewrite still
 * held did not land.
 */
export async function finishRewrite(p: Pick<Ports, 'usage' | 'pastes'>, hold: HeldAmounts): Promise<'settled' | 'released'> {
  if (hold.task?.kind !== 'rewrite') throw new Error('Not the task of a paste rewrite');
  const paste = await p.pastes.findById(hold.task.pasteId);
  const landed = paste?.ownerId === hold.userId && (paste.rewrites ?? []).includes(hold.holdId);
  return (await endRewrite(p, hold.userId, hold.holdId, hold.task.grows, landed, hold.by ?? undefined, true)).outcome;
}

/**
 * Before a paste goes, ends as landed the holds of the rewrites it names that are still held (their instance died
 * before ending them, or is about to: it then finds its hold ended). One read of the user's holds, only for a paste
 * that was ever rewritten to another size.
 */
export async function endLandedRewrites(
  p: Pick<Ports, 'usage'>,
  userId: string,
  named: readonly string[] | undefined,
  done: readonly string[] = [],
): Promise<void> {
  const ids = new Set((named ?? []).filter((id) => !done.includes(id)));
  if (ids.size === 0) return;
  for (const hold of await p.usage.holdsOf(userId)) {
    if (hold.task?.kind === 'rewrite' && ids.has(hold.holdId)) {
      await endRewrite(p, userId, hold.holdId, hold.task.grows, true, hold.by ?? undefined, true);
    }
  }
}
