import type { StoredFile } from '../domain/index.js';
import type { Ports } from './ports/index.js';

type Deps = Pick<Ports, 'files' | 'shares' | 'collections' | 'blobs' | 'usage'>;

/** Files are removed in slices so a large cascade never holds more than this many in flight. */
const SLICE = 200;

/**
 * The one cascade for deleting files: the record first, then what points at it (its share, collection entries), then
 * its bytes (best effort), then the counts. Only files whose record this call actually deleted are released, so two concurrent
 * cascades over the same file count it once. Returns the files this call removed.
 */
export async function removeFiles(p: Deps, files: readonly StoredFile[]): Promise<StoredFile[]> {
  const removed: StoredFile[] = [];
  for (let start = 0; start < files.length; start += SLICE) {
    const slice = files.slice(start, start + SLICE);
    const deleted = (await Promise.all(slice.map((file) => p.files.delete(file.id)))).filter(
      (file): file is StoredFile => file !== null,
    );
    for (const [ownerId, owned] of byOwner(deleted)) await removeOwned(p, ownerId, owned);
    removed.push(...deleted);
  }
  return removed;
}

async function removeOwned(p: Deps, ownerId: string, files: readonly StoredFile[]): Promise<void> {
  const ids = files.map((file) => file.id);
  const shares = await p.shares.deleteByItems('file', ids);
  for (const share of shares) await p.usage.release(share.ownerId, 'shares', 1);
  await p.collections.removeFilesEverywhere(ownerId, ids);
  // The records are gone, so the counts must follow whatever the store says: bytes it failed to delete are orphans
  // the sweep removes later, while a skipped release would hold the owner's quota for nothing, for ever.
  await Promise.allSettled(files.map((file) => p.blobs.delete(file.blobKey)));
  await p.usage.release(ownerId, 'files', files.length);
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  if (bytes > 0) await p.usage.release(ownerId, 'storage', bytes);
}

function byOwner(files: readonly StoredFile[]): Map<string, StoredFile[]> {
  const groups = new Map<string, StoredFile[]>();
  for (const file of files) {
    const group = groups.get(file.ownerId);
    if (group) group.push(file);
    else groups.set(file.ownerId, [file]);
  }
  return groups;
}
