import type { MadeBy, ShareType } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';

type Deps = Pick<Ports, 'files' | 'folders' | 'collections' | 'pastes'>;

export const ITEM_NAMES: Record<ShareType, string> = {
  file: 'File',
  folder: 'Folder',
  collection: 'Collection',
  paste: 'Paste',
};

/** Who made the item a share would point at, or null when there is no such item. */
export async function sharedItem(p: Deps, type: ShareType, id: string): Promise<MadeBy | null> {
  const made = (item: MadeBy | null) => item && { ownerId: item.ownerId, uploaderTokenId: item.uploaderTokenId };
  const folderLike = (item: { ownerId: string } | null) => item && { ownerId: item.ownerId, uploaderTokenId: null };
  switch (type) {
    case 'file':
      return made(await p.files.findById(id));
    case 'folder':
      return folderLike(await p.folders.findById(id));
    case 'collection':
      return folderLike(await p.collections.findById(id));
    case 'paste':
      return made(await p.pastes.findById(id));
  }
}
