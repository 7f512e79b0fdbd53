import type { Folder } from '../../domain/index.js';
import { MAX_TREE_ENTRIES } from '../../domain/index.js';

/**
 * How many descendants a move or a delete looks at. Far above what a folder limit sensibly allows; a read of the
 * tree stays bounded by MAX_TREE_ENTRIES instead.
 */
export const SUBTREE_SCAN_LIMIT = MAX_TREE_ENTRIES * 10;

/** How many levels lie below `rootId` among `descendants` (0 for a leaf). */
export function subtreeHeight(rootId: string, descendants: readonly Folder[]): number {
  const parents = new Map(descendants.map((folder) => [folder.id, folder.parentId]));
  const depths = new Map<string, number>([[rootId, 0]]);
  const depthOf = (id: string): number => {
    const known = depths.get(id);
    if (known !== undefined) return known;
    const parentId = parents.get(id);
    // A parent outside the listing (a truncated scan) is counted as the root's child: the best we know.
    const depth = parentId == null || !parents.has(parentId) ? 1 : depthOf(parentId) + 1;
    depths.set(id, depth);
    return depth;
  };
  return descendants.reduce((height, folder) => Math.max(height, depthOf(folder.id)), 0);
}

/** The repositories' order: name without regard to case, then id. */
export function byName(a: { name: string; id: string }, b: { name: string; id: string }): number {
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
