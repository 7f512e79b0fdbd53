import type { FileView, FolderView, SearchView } from '../api.js';

/** The folders that hold a search hit, from the top level down (empty: at the top level). */
export type Where = { id: string; name: string }[];

interface Common {
  id: string;
  name: string;
  updatedAt: string;
  url?: string | undefined;
  /** Only on search hits: where the hit is, since a search lists items of many folders. */
  where?: Where | undefined;
}

/** One row of a listing: a folder or a file, in one shape so sorting and selection treat them alike. */
export type Entry = (Common & { kind: 'folder'; folder: FolderView }) | (Common & { kind: 'file'; file: FileView });

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

/** Search hits as entries, each knowing where it is. */
export const hitEntries = (found: SearchView): Entry[] => [
  ...found.folders.map((hit) => ({ ...folderEntry(hit), where: hit.path })),
  ...found.files.map((hit) => ({ ...fileEntry(hit), where: hit.path })),
];

/** Where a hit opens: a folder at its own page; a file in its folder, opened in the viewer (`?view=`). */
export function hitHref(entry: Entry): string {
  if (entry.kind === 'folder') return `/files/${encodeURIComponent(entry.id)}`;
  const folderId = entry.file.folderId;
  return `${folderId ? `/files/${encodeURIComponent(folderId)}` : '/'}?view=${encodeURIComponent(entry.id)}`;
}

/** "in Projects / 2026", or "in Home" at the top level. */
export const whereText = (where: Where) => `in ${where.length === 0 ? 'Home' : where.map((step) => step.name).join(' / ')}`;

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
