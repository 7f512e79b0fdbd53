import type { Actor, StoredFile } from '../../src/domain/index.js';
import type { Ports } from '../../src/application/index.js';
import { bytes } from '../support/core.js';

/** Puts a file in place straight through the ports, so these tests do not depend on the upload use case. */
export async function storeFile(
  ports: Ports,
  ownerId: string,
  name: string,
  content: string,
  options: { folderId?: string | null; mime?: string } = {},
): Promise<StoredFile> {
  const { key, size } = await ports.blobs.write(bytes(content));
  const now = ports.clock.now();
  const file: StoredFile = {
    id: ports.ids.newId(),
    ownerId,
    folderId: options.folderId ?? null,
    name,
    mime: options.mime ?? 'text/plain',
    size,
    blobKey: key,
    uploaderTokenId: null,
    charset: null,
    createdAt: now,
    updatedAt: now,
  };
  await ports.files.insert(file);
  return file;
}

/** The same user behind an uploader (API) token. */
export function asUploader(actor: Actor): Actor {
  return { ...actor, via: 'uploader', tokenId: `${actor.tokenId}-api` };
}

/** Settles every promise and tallies how they ended. */
export async function tally<T>(promises: Promise<T>[]): Promise<{ ok: T[]; codes: string[] }> {
  const results = await Promise.allSettled(promises);
  const ok: T[] = [];
  const codes: string[] = [];
  for (const r of results) {
    if (r.status === 'fulfilled') ok.push(r.value);
    else codes.push((r.reason as { code?: string }).code ?? String(r.reason));
  }
  return { ok, codes };
}
