import type { FileView, FolderView } from '../api.js';

/** One row of a listing: a folder or a file, in one shape so sorting and selection treat them alike. */
export type Entry =
  | { kind: 'folder'; id: string; name: string; updatedAt: string; url?: string | undefined; folder: FolderView }
  | { kind: 'file'; id: string; name: string; updatedAt: string; url?: string | undefined; file: FileView };

export type SortKey = 'name' | 'size' | 'updated';

export const folderEntry = (folder: FolderView): Entry => ({
  kind: 'folder',
  id: folder.id,
  name: folder.name,
  updatedAt: folder.updatedAt,
  url: folder.url,
  folder,
});

export const fileEntry = (file: FileView): Entry => ({
  kind: 'file',
  id: file.id,
  name: file.name,
  updatedAt: file.updatedAt,
  url: file.url,
  file,
});

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
const sizeOf = (entry: Entry) => (entry.kind === 'file' ? Number(entry.file.size) : -1);

/** Folders first, then by the chosen key; names break ties so the order never jumps. */
export function sortEntries(entries: Entry[], key: SortKey, descending: boolean): Entry[] {
  const direction = descending ? -1 : 1;
  return [...entries].sort((a, b) => {
    if (a.kind !== b.kind) return a.kind === 'folder' ? -1 : 1;
    const primary =
      key === 'size' ? sizeOf(a) - sizeOf(b) : key === 'updated' ? a.updatedAt.localeCompare(b.updatedAt) : 0;
    return (primary || collator.compare(a.name, b.name)) * direction;
  });
}

export const isImage = (entry: Entry) => entry.kind === 'file' && /^image\/(png|jpeg|gif|webp|avif)$/.test(entry.file.mime);
