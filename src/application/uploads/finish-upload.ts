import type { Actor, StoredFile } from '../../domain/index.js';
import { isTextual } from '../../domain/index.js';
import type { ResumableUploadState } from '../contract.js';
import { landFile, type LandingDeps } from '../files/land-file.js';
import { Utf8Check } from '../files/utf8-check.js';
import type { Ports, UploadPart, UploadSession } from '../ports/index.js';
import { appendMiss } from './upload-state.js';

export type FinishDeps = LandingDeps & Pick<Ports, 'uploads' | 'clock'>;

/**
 * Makes the File of a complete upload through the same rules as a single-request upload. The session is taken
 * first, so a termination or expiry racing with this either wins (and gives everything back) or finds nothing; a
 * crash after the take leaves a stale hold and orphan bytes, which the sweeps give back.
 */
export async function finishUpload(p: FinishDeps, actor: Actor, session: UploadSession): Promise<ResumableUploadState> {
  const blob = await joined(p, session.parts);
  const ownBlob = blob.key !== session.parts[0]?.key;
  const taken = await p.uploads.take(session.id);
  if (!taken) {
    if (ownBlob) await Promise.allSettled([p.blobs.delete(blob.key)]);
    throw await appendMiss(p, session.id, session.length);
  }
  const now = p.clock.now();
  const file: StoredFile = {
    id: session.id,
    ownerId: session.ownerId,
    folderId: session.folderId,
    name: session.name ?? session.filename,
    mime: session.mime ?? 'application/octet-stream',
    size: blob.size,
    blobKey: blob.key,
    uploaderTokenId: session.uploaderTokenId,
    charset: isTextual(session.mime ?? '') && (await isUtf8(p, blob.key)) ? 'utf-8' : null,
    createdAt: now,
    updatedAt: now,
  };
  const view = await landFile(p, { actor, file, share: session.share });
  if (ownBlob) await Promise.allSettled(session.parts.map((part) => p.blobs.delete(part.key)));
  return { id: session.id, length: session.length, offset: session.length, expiresAt: null, fileId: view.id };
}

/**
 * One blob of the parts in order. A single part is that blob already; more are streamed into a new one (parts are
 * written by separate appends, possibly on separate instances, so none can safely be extended in place).
 */
async function joined(p: Pick<Ports, 'blobs'>, parts: readonly UploadPart[]): Promise<{ key: string; size: number }> {
  if (parts.length === 1) return { ...parts[0]! };
  const { blobs } = p;
  return blobs.write(
    (async function* () {
      for (const part of parts) yield* await blobs.read(part.key);
    })(),
  );
}

async function isUtf8(p: Pick<Ports, 'blobs'>, key: string): Promise<boolean> {
  const check = new Utf8Check();
  for await (const _ of check.watch(await p.blobs.read(key))) void _;
  return check.end();
}
