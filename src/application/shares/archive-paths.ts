import type { Folder } from '../../domain/index.js';
import { cleanName } from '../../domain/index.js';

/** One archive path segment: a clean name (no separator, never `.` or `..`), so no entry can climb out on extraction. */
export const segment = (name: string): string => cleanName(name) || '_';

/**
 * Each folder's path below the shared root (the root itself is ''). A folder whose ancestry does not lead back to
 * the root within the listing (a cycle, a record moved meanwhile) is left out, and so are its files.
 */
export function folderPaths(rootId: string, descendants: readonly Folder[]): Map<string, string> {
  const byId = new Map(descendants.map((folder) => [folder.id, folder]));
  const paths = new Map<string, string>([[rootId, '']]);
  const resolve = (id: string, seen: Set<string>): string | undefined => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const folder = byId.get(id);
    if (!folder?.parentId || seen.has(id)) return undefined;
    seen.add(id);
    const parent = resolve(folder.parentId, seen);
    if (parent === undefined) return undefined;
    const path = `${parent}${segment(folder.name)}/`;
    paths.set(id, path);
    return path;
  };
  for (const folder of descendants) resolve(folder.id, new Set());
  return paths;
}

/** Hands out each path once: a second `a.txt` becomes `a (2).txt` (collections may hold files of one name). */
export class UniquePaths {
  private readonly taken = new Set<string>();

  claim(path: string): string {
    let candidate = path;
    const dot = path.lastIndexOf('.');
    const slash = path.lastIndexOf('/');
    const [stem, ext] = dot > slash + 1 ? [path.slice(0, dot), path.slice(dot)] : [path, ''];
    for (let n = 2; this.taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}
