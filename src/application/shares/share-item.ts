import type { ShareType } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';

type Deps = Pick<Ports, 'files' | 'folders' | 'collections' | 'pastes'>;

export const ITEM_NAMES: Record<ShareType, string> = {
  file: 'File',
  folder: 'Folder',
  collection: 'Collection',
  paste: 'Paste',
};

/** The owner of the item a share would point at, or null when there is no such item. */
export async function itemOwner(p: Deps, type: ShareType, id: string): Promise<string | null> {
  switch (type) {
    case 'file':
      return (await p.files.findById(id))?.ownerId ?? null;
    case 'folder':
      return (await p.folders.findById(id))?.ownerId ?? null;
    case 'collection':
      return (await p.collections.findById(id))?.ownerId ?? null;
    case 'paste':
      return (await p.pastes.findById(id))?.ownerId ?? null;
  }
}
