import type { Ports, UploadSession } from '../ports/index.js';

/**
 * Gives back what a session that was just taken (terminated, expired) held: its parts, then its hold. Bytes that
 * fail to go are orphans the sweep removes; the counts follow regardless.
 */
export async function releaseSession(p: Pick<Ports, 'blobs' | 'usage' | 'requests'>, session: UploadSession): Promise<void> {
  await Promise.allSettled(session.parts.map((part) => p.blobs.delete(part.key)));
  if (session.request) await giveBackRequestRoom(p, session);
  await p.usage.releaseHold(session.ownerId, session.id);
}

/**
 * An upload through a file request that ends without a file gives the request back the room its hold holds (at most
 * once, however many try), before the hold itself goes.
 */
export async function giveBackRequestRoom(p: Pick<Ports, 'requests'>, session: UploadSession): Promise<void> {
  if (!session.request) return;
  await Promise.allSettled([p.requests.giveBackHeld(session.id)]);
}
