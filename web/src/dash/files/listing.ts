import { useEffect, useState } from 'preact/hooks';
import { api, type FolderView } from '../api.js';
import { fileEntry, folderEntry, type Entry } from './entries.js';

export interface Listing {
  folder: FolderView | null;
  entries: Entry[];
  /** True while further pages of the top level are still arriving. */
  more: boolean;
  error: unknown;
}

/** Names and parents of every folder seen so far, so breadcrumbs need no extra requests. */
export const knownFolders = new Map<string, { name: string; parentId: string | null }>();

function remember(folders: FolderView[]): void {
  for (const folder of folders) knownFolders.set(folder.id, { name: folder.name, parentId: folder.parentId });
}

/** The folders a search named on the way to its hits, so a hit opened in place has its whole breadcrumb trail. */
export function rememberPaths(paths: { id: string; name: string }[][]): void {
  for (const path of paths) {
    path.forEach((step, i) => knownFolders.set(step.id, { name: step.name, parentId: path[i - 1]?.id ?? null }));
  }
}

/**
 * The entries of a folder, or of the top level page by page (cursor paging): the first page shows at once and the
 * rest streams in behind it. `version` reloads.
 */
export function useListing(folderId: string | null, version: number): Listing {
  const [listing, setListing] = useState<Listing>({ folder: null, entries: [], more: true, error: null });
  useEffect(() => {
    let current = true;
    const load = async () => {
      if (folderId !== null) {
        const folder = await api.folder(folderId);
        remember([folder, ...folder.folders]);
        const entries = [...folder.folders.map(folderEntry), ...folder.files.map(fileEntry)];
        if (current) setListing({ folder, entries, more: false, error: null });
        return;
      }
      const entries: Entry[] = [];
      let cursor: string | null = null;
      do {
        const page = await api.rootPage(cursor);
        remember(page.folders);
        entries.push(...page.folders.map(folderEntry), ...page.files.map(fileEntry));
        cursor = page.nextCursor;
        if (current) setListing({ folder: null, entries: [...entries], more: cursor !== null, error: null });
      } while (cursor && current);
    };
    load().catch((error: unknown) => current && setListing((l) => ({ ...l, more: false, error })));
    return () => {
      current = false;
    };
  }, [folderId, version]);
  return listing;
}

/** Home, then each known ancestor, then the folder itself; an unknown ancestor ends the walk. */
export function breadcrumbs(folderId: string | null): { id: string | null; name: string }[] {
  const trail: { id: string | null; name: string }[] = [];
  for (let id = folderId, guard = 0; id !== null && guard < 200; guard += 1) {
    const known = knownFolders.get(id);
    if (!known) {
      trail.unshift({ id, name: '…' });
      break;
    }
    trail.unshift({ id, name: known.name });
    id = known.parentId;
  }
  return [{ id: null, name: 'Home' }, ...trail];
}
