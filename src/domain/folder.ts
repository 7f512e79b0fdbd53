import { badRequest } from './errors.js';

export interface Folder {
  id: string;
  ownerId: string;
  parentId: string | null;
  name: string;
  createdAt: Date;
  updatedAt: Date;
}

/** How deep folders may nest (a root-level folder has depth 1). */
export const MAX_FOLDER_DEPTH = 32;
/**
 * How far any walk of the stored tree goes: up a chain of parents, or down the levels of one read. Well beyond
 * MAX_FOLDER_DEPTH, so a tree that an older version or a hand edit left deeper still reads in part; yet a bound,
 * whatever is stored.
 */
export const MAX_STORED_DEPTH = 4 * MAX_FOLDER_DEPTH;
/** How many entries (files and folders) one subtree read may return. */
export const MAX_TREE_ENTRIES = 20_000;

/**
 * A folder placed under a parent whose ancestor chain (root first) is `parentChain` would sit at depth
 * `parentChain.length + 2`; with its own subtree `subtreeHeight` levels deep (0 for a leaf) it must stay within bounds.
 */
export function assertDepthAllowed(parentChainLength: number, subtreeHeight = 0): void {
  const depth = parentChainLength + 2 + subtreeHeight;
  if (depth > MAX_FOLDER_DEPTH) {
    throw badRequest(`Folders may nest at most ${MAX_FOLDER_DEPTH} levels deep`, { field: 'parentId' });
  }
}

/**
 * A folder can never move into itself or anything below it.
 * `targetChain` lists the ancestors of the new parent, root first, and then the new parent itself.
 */
export function assertNotIntoOwnSubtree(folderId: string, targetChain: readonly string[]): void {
  if (targetChain.includes(folderId)) {
    throw badRequest('A folder cannot be moved into itself or its own subtree', { field: 'parentId' });
  }
}
