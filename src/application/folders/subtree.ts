import type { Folder } from '../../domain/index.js';
import { MAX_TREE_ENTRIES } from '../../domain/index.js';

/**
 * How many descendants a move or a recursive search looks at. Far above what a folder limit sensibly allows; a read
 * of the tree stays bounded by MAX_TREE_ENTRIES instead.
 */
export const SUBTREE_SCAN_LIMIT = MAX_TREE_ENTRIES * 10;

/**
 * How many levels lie below `rootId` among `descendants` (0 for a leaf), counted level by level from the root, each
 * folder once, so whatever is stored (a cycle, a chain thousands deep) the count ends and uses no recursion.
 */
export function subtreeHeight(rootId: string, descendants: readonly Folder[]): number {
  const children = new Map<string, string[]>();
  for (const folder of descendants) {
    if (folder.parentId === null) continue;
    const siblings = children.get(folder.parentId);
    if (siblings) siblings.push(folder.id);
    else children.set(folder.parentId, [folder.id]);
  }
  const seen = new Set([rootId]);
  let level = [rootId];
  let height = 0;
  for (;;) {
    level = level.flatMap((id) => children.get(id) ?? []).filter((id) => !seen.has(id));
    if (level.length === 0) return height;
    for (const id of level) seen.add(id);
    height++;
  }
}

/** The repositories' order: name without regard to case, then id. */
export function byName(a: { name: string; id: string }, b: { name: string; id: string }): number {
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
