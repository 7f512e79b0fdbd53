import type { Folder, Share } from '../../domain/index.js';
import { notFound, shareReaches } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';

/**
 * A folder of a folder share: the shared folder itself or one below it, owned by the share's owner. Anything else
 * (another share type, a folder elsewhere, an unknown id, a folder being deleted) is not_found, so a link never
 * tells a folder outside the share from one that does not exist.
 */
export async function folderInShare(p: Pick<Ports, 'folders'>, share: Share, folderId: string): Promise<Folder> {
  if (share.type !== 'folder') throw notFound('Folder');
  const folder = await p.folders.findById(folderId);
  if (!folder || folder.ownerId !== share.ownerId) throw notFound('Folder');
  const folderChain = await p.folders.chain(folderId);
  if (!shareReaches(share, { kind: 'folder', folderId, folderChain })) throw notFound('Folder');
  return folder;
}
