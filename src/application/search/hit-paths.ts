import { MAX_STORED_DEPTH, type Folder } from '../../domain/index.js';
import type { Ports } from '../ports/index.js';
import type { PathStep } from '../views.js';

type Known = Map<string, { name: string; parentId: string | null }>;

/**
 * The folder paths of search hits, from the top level down to each hit's own folder. Ancestors are looked up level
 * by level, one query per level for all hits together and only for folders not known yet (the folder hits
 * themselves are known), so a search costs as many extra queries as its deepest hit is deep, whatever its size.
 * A path whose ancestor is gone or being deleted starts below that ancestor.
 */
export async function hitPaths(
  p: Pick<Ports, 'folders'>,
  ownerId: string,
  hitFolders: readonly Folder[],
  holders: readonly (string | null)[],
): Promise<(id: string | null) => PathStep[]> {
  const known: Known = new Map(hitFolders.map((f) => [f.id, { name: f.name, parentId: f.parentId }]));
  const missing = (ids: Iterable<string | null>) =>
    [...new Set(ids)].filter((id): id is string => id !== null && !known.has(id));
  let wanted = missing(holders);
  for (let level = 0; wanted.length > 0 && level < MAX_STORED_DEPTH; level += 1) {
    const found = await p.folders.findMany(ownerId, wanted);
    for (const folder of found) known.set(folder.id, { name: folder.name, parentId: folder.parentId });
    wanted = missing(found.map((folder) => folder.parentId));
  }
  return (id) => pathTo(known, id);
}

function pathTo(known: Known, id: string | null): PathStep[] {
  const steps: PathStep[] = [];
  const seen = new Set<string>();
  for (let at = id; at !== null && !seen.has(at); ) {
    const folder = known.get(at);
    if (!folder) break;
    seen.add(at);
    steps.push({ id: at, name: folder.name });
    at = folder.parentId;
  }
  return steps.reverse();
}
