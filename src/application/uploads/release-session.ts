import type { Ports, UploadSession } from '../ports/index.js';

/**
 * Gives back what a session that was just taken (terminated, expired) held: its parts, then its hold. Bytes that
 * fail to go are orphans the sweep removes; the counts follow regardless.
 */
export async function releaseSession(p: Pick<Ports, 'blobs' | 'usage'>, session: UploadSession): Promise<void> {
  await Promise.allSettled(session.parts.map((part) => p.blobs.delete(part.key)));
  await p.usage.releaseHold(session.ownerId, session.id);
}
