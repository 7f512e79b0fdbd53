import { conflict } from '../../domain/index.js';
import type { Ports, UploadSession } from '../ports/index.js';

export type CheckDeps = Pick<Ports, 'uploads' | 'blobs' | 'usage'>;

/** A check that keeps losing to other changes of the session gives up after this many looks (409: ask again). */
const ATTEMPTS = 5;

/**
 * The session as its stored bytes bear it out. A part is answered before its bytes are flushed (they are made durable
 * together when the upload completes), so a crash of the machine can leave acknowledged parts short or missing. At
 * the first such part the session is cut back to the parts before it, by one conditional update on the parts this
 * check saw; the cut parts' bytes go, and their storage leaves the upload's hold and the counter. The client then
 * resends from the lower offset, which tus allows. Null when the session went meanwhile (ended or completed).
 */
export async function checkedParts(p: CheckDeps, session: UploadSession): Promise<UploadSession | null> {
  let current: UploadSession | null = session;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (!current) return null;
    const sizes = await Promise.all(current.parts.map((part) => p.blobs.size(part.key)));
    const short = current.parts.findIndex((part, i) => sizes[i] !== part.size);
    if (short < 0) return current;
    const cut = await p.uploads.cutBack(current.id, current.parts, short);
    if (cut) {
      const gone = current.parts.slice(short);
      await Promise.allSettled(gone.map((part) => p.blobs.delete(part.key)));
      const bytes = gone.reduce((sum, part) => sum + part.size, 0);
      // Missed only when the hold no longer holds these bytes (the upload ended meanwhile and gave back everything).
      await Promise.allSettled([p.usage.releaseHeld(current.ownerId, current.id, 'storage', bytes)]);
      return cut;
    }
    current = await p.uploads.findById(current.id);
  }
  throw conflict('The upload kept changing while its bytes were checked; ask for its offset again');
}
