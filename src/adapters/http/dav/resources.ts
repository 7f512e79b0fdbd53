import type { Actor } from '../../../domain/index.js';
import type { Core } from '../../../application/contract.js';
import type { FileView, FolderView } from '../../../application/views.js';
import { hrefOf, lockPath } from './dav-path.js';

/** What a path names: the root, a folder or a file, with what its properties need. */
export interface Item {
  kind: 'root' | 'folder' | 'file';
  /** Null for the root. */
  id: string | null;
  names: string[];
  file: FileView | null;
  folder: FolderView | null;
}

export interface Resolved {
  /** Null when nothing stands at the path. */
  item: Item | null;
  /** The folder that holds (or would hold) the last name: null for the root; undefined when the parent is missing. */
  parentId: string | null | undefined;
}

export const isCollection = (item: Item) => item.kind !== 'file';
export const hrefOfItem = (item: Item) => hrefOf(item.names, isCollection(item));
export const lockPathOf = (item: { names: readonly string[] }) => lockPath(item.names);

export const rootItem: Item = { kind: 'root', id: null, names: [], file: null, folder: null };

/**
 * The validator WebDAV hands out for a file (getetag, and the ETag of GET under /dav/): its id and when it last
 * changed, so new bytes under the same id (a PUT) always change it. A rename changes it too, which costs a client
 * only a fresh download.
 */
export function etagOf(file: FileView): string {
  return `"${file.id}-${Date.parse(file.updatedAt).toString(36)}"`;
}

export function itemOfFolder(names: string[], folder: FolderView): Item {
  return { kind: 'folder', id: folder.id, names, file: null, folder };
}

export function itemOfFile(names: string[], file: FileView): Item {
  return { kind: 'file', id: file.id, names, file, folder: null };
}

/** Walks the names from the root; a folder answers for a name before a file of the same name. */
export async function resolve(core: Core, actor: Actor, names: readonly string[]): Promise<Resolved> {
  let parentId: string | null = null;
  for (let i = 0; i < names.length; i++) {
    const { folder, file } = await core.findChild.execute({ actor, parentId, name: names[i]! });
    const here = names.slice(0, i + 1);
    if (i === names.length - 1) {
      if (folder) return { item: itemOfFolder(here, folder), parentId };
      if (file) return { item: itemOfFile(here, file), parentId };
      return { item: null, parentId };
    }
    if (!folder) return { item: null, parentId: undefined };
    parentId = folder.id;
  }
  return { item: rootItem, parentId: null };
}
