import type { Folder } from '../../domain/index.js';
import { cleanName } from '../../domain/index.js';

// APPNOTE 4.4.17.1: an entry name holds no drive or device letter. A display name may keep `:` (`Meeting 10:30.txt`),
// but in an entry name `C:` is a drive to a careless Windows extractor and `a:b` an NTFS alternate data stream.
const COLON = /:/g;
// Windows drops a segment's trailing dots and spaces, so a segment of nothing else (`. .`, `...`) is not kept as it is.
const DOTS_AND_SPACES = /^[.\s]+$/u;

/**
 * One archive path segment (APPNOTE 4.4.17): a clean name (no separator, no control character, never `.` or `..`)
 * with `:` made `_` as `\` and `/` are, never empty, and never dots and spaces alone. Joined with `/` from an empty
 * root, no entry name starts with `/` or a drive, and none can climb out on extraction.
 */
export function segment(name: string): string {
  const clean = cleanName(name).replace(COLON, '_');
  if (clean === '') return '_';
  return DOTS_AND_SPACES.test(clean) ? clean.replace(/\./g, '_') : clean;
}

/**
 * Each folder's path below the shared root (the root itself is ''), claimed from `unique` so that two sibling folders
 * whose names clean to one segment (`Docs` and `docs`, `10:30` and `10_30`) stay two directories. A folder whose
 * ancestry does not lead back to the root within the listing (a cycle, a record moved meanwhile) is left out, and so
 * are its files.
 */
export function folderPaths(rootId: string, descendants: readonly Folder[], unique = new UniquePaths()): Map<string, string> {
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
    const path = `${unique.claim(`${parent}${segment(folder.name)}`)}/`;
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
