import { useState } from 'preact/hooks';
import { formatDate, formatSize } from '../../common/format.js';
import { api } from '../api.js';
import { FileIcon, FolderIcon } from '../icons.js';
import { Link, ViewerLink } from '../ui.js';
import { hitHref, isImage, whereText, type Entry, type Where } from './entries.js';

const folderHref = (id: string) => `/files/${encodeURIComponent(id)}`;

/** Renames in place: Enter saves, Escape gives up. */
function RenameField({ entry, onDone }: { entry: Entry; onDone: (name: string | null) => void }) {
  const [name, setName] = useState(entry.name);
  return (
    <form class="rename" onSubmit={(e) => (e.preventDefault(), onDone(name))}>
      <input
        aria-label={`New name for ${entry.name}`}
        value={name}
        ref={(input) => input?.focus()}
        onInput={(e) => setName(e.currentTarget.value)}
        onKeyDown={(e) => e.key === 'Escape' && onDone(null)}
      />
    </form>
  );
}

/** A search hit: its name opens it where it is (its folder, or the file in its folder), and says where that is. */
function HitName({ entry, where }: { entry: Entry; where: Where }) {
  return (
    <span class="hit">
      <Link class="name" href={hitHref(entry)}>
        {entry.kind === 'folder' ? <FolderIcon /> : <FileIcon />}
        <span class="label">{entry.name}</span>
      </Link>
      <span class="where muted" title={whereText(where)}>
        {whereText(where)}
      </span>
    </span>
  );
}

export function EntryName({ entry, renaming, onRenamed }: { entry: Entry; renaming: boolean; onRenamed: (name: string | null) => void }) {
  if (renaming) return <RenameField entry={entry} onDone={onRenamed} />;
  if (entry.where) return <HitName entry={entry} where={entry.where} />;
  if (entry.kind === 'folder') {
    return (
      <Link class="name" href={folderHref(entry.id)}>
        <FolderIcon />
        <span class="label">{entry.name}</span>
      </Link>
    );
  }
  return (
    <ViewerLink class="name" id={entry.id}>
      <FileIcon />
      {/* One line that ellipsis ends: the sender gives way before the file's own name does. */}
      <span class="label">
        <span>{entry.name}</span>
        {entry.file.request && (
          <span class="sender muted" title={entry.file.request.note ?? undefined}>
            {` · from ${entry.file.request.uploaderName ?? 'someone without a name'}`}
          </span>
        )}
      </span>
    </ViewerLink>
  );
}

export function EntryFacts({ entry }: { entry: Entry }) {
  return (
    <>
      <span class="size">{entry.kind === 'file' ? formatSize(entry.file.size) : ''}</span>
      <span class="date muted">{formatDate(entry.updatedAt)}</span>
    </>
  );
}

/** A grid tile's picture: the image itself, scaled by the browser, or the kind of item. */
export function Thumbnail({ entry }: { entry: Entry }) {
  if (isImage(entry)) return <img class="thumb" src={api.contentUrl(entry.id)} alt="" loading="lazy" decoding="async" />;
  return <span class="thumb">{entry.kind === 'folder' ? <FolderIcon size={64} /> : <FileIcon size={64} />}</span>;
}
