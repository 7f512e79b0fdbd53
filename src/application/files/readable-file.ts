import type { Share, StoredFile } from '../../domain/index.js';
import { notFound } from '../../domain/index.js';
import type { ReadAccess } from '../contract.js';
import type { Ports } from '../ports/index.js';
import { authorizeRead } from '../shares/share-access.js';

type Deps = Pick<Ports, 'files' | 'folders' | 'collections' | 'shares' | 'hasher' | 'throttle' | 'activity' | 'ids' | 'settings' | 'clock' | 'secrets'>;

/** A file its reader may see, and the share it is seen through (null for its owner). */
export interface ReadableFile {
  file: StoredFile;
  through: Share | null;
}

/**
 * Loads a file its reader may see: the owner's session, or a share of the file, of a folder above it, or of a
 * collection holding it.
 */
export async function readableFile(p: Deps, access: ReadAccess, id: string): Promise<ReadableFile> {
  const file = await p.files.findById(id);
  // A missing file goes through the same checks as a foreign one (no owner matches ''), so the answer
  // (unauthorized, forbidden or not_found) never reveals whether it exists.
  const through = await authorizeRead(p, access, {
    what: 'File',
    ownerId: file?.ownerId ?? '',
    action: 'file.read',
    describe: async (share) => ({
      kind: 'file',
      fileId: id,
      folderChain: file?.folderId ? await p.folders.chain(file.folderId) : [],
      collectionIds: (await inSharedCollection(p, share.type, share.itemId, id)) ? [share.itemId] : [],
    }),
  });
  if (!file) throw notFound('File');
  return { file, through };
}

async function inSharedCollection(p: Deps, type: string, collectionId: string, fileId: string): Promise<boolean> {
  if (type !== 'collection') return false;
  const collection = await p.collections.findById(collectionId);
  return collection?.fileIds.includes(fileId) ?? false;
}
