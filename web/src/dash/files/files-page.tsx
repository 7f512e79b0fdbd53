import { useEffect, useMemo, useState } from 'preact/hooks';
import { formatCount } from '../../common/format.js';
import { api, type SearchView } from '../api.js';
import { ErrorNote, Link, useAction } from '../ui.js';
import { Viewer, type Viewable } from '../viewer.js';
import { ActionPanel } from './action-panel.js';
import { BulkBar } from './bulk-bar.js';
import { fromDrop, fromInput } from './collect.js';
import { EntryView } from './entry-view.js';
import { hitEntries, sortEntries, type Entry, type SortKey } from './entries.js';
import { breadcrumbs, rememberPaths, useListing } from './listing.js';
import { moveEntries } from './move.js';
import { UploadList, useUploads } from './upload-queue.js';
import { VirtualRows } from './virtual-rows.js';

const loadFile = async (id: string): Promise<Viewable> => ({ kind: 'file', item: await api.file(id) });

const ROW_HEIGHT = { list: 48, grid: 168 };
const TILE_WIDTH = 152;

interface ToolbarProps {
  folderId: string | null;
  onChanged: () => void;
  onPick: (files: FileList | null) => void;
  encrypt: boolean;
  onEncrypt: (on: boolean) => void;
}

function Toolbar({ folderId, onChanged, onPick, encrypt, onEncrypt }: ToolbarProps) {
  const [name, setName] = useState('');
  const [, error, run] = useAction();
  const create = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      await api.createFolder(name, folderId);
      setName('');
      onChanged();
    });
  };
  return (
    <div class="toolbar">
      <form class="row" onSubmit={create}>
        <input aria-label="New folder name" placeholder="New folder" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <button type="submit">Create folder</button>
      </form>
      <label class="button primary">
        Upload files
        <input type="file" multiple class="visually-hidden" onChange={(e) => (onPick(e.currentTarget.files), (e.currentTarget.value = ''))} />
      </label>
      <label class="button">
        Upload a folder
        <input
          type="file"
          class="visually-hidden"
          ref={(input) => input?.setAttribute('webkitdirectory', '')}
          onChange={(e) => (onPick(e.currentTarget.files), (e.currentTarget.value = ''))}
        />
      </label>
      <label class="inline-check" title="Files are encrypted in this browser before they leave it; the key is only in their share link">
        <input type="checkbox" checked={encrypt} onChange={(e) => onEncrypt(e.currentTarget.checked)} />
        Encrypt end to end
      </label>
      <ErrorNote error={error} />
    </div>
  );
}

export function FilesPage({ folderId, viewId }: { folderId: string | null; viewId: string | null }) {
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((v) => v + 1);
  const listing = useListing(folderId, version);
  const uploads = useUploads(reload);
  const [encrypt, setEncrypt] = useState(false);
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: 'name', descending: false });
  const [layout, setLayout] = useState<'list' | 'grid'>('list');
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<SearchView | null>(null);
  const [searchError, setSearchError] = useState<unknown>(null);
  const viewing = viewId;
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [width, setWidth] = useState(800);
  const [dragging, setDragging] = useState(false);
  const [panel, setPanel] = useState<{ entry: Entry; rename: () => void } | null>(null);
  const [moveProblem, setMoveProblem] = useState<unknown>(null);

  useEffect(() => {
    setSelected(new Set());
    setFound(null);
    setQuery('');
    setSearchError(null);
    setPanel(null);
  }, [folderId]);
  // A search hit opened in place: the folder shows again, with the hit in it.
  useEffect(() => {
    if (viewing === null) return;
    setFound(null);
    setQuery('');
  }, [viewing]);
  useEffect(() => {
    document.title = `${listing.folder?.name ?? 'Files'} · Coffer`;
  }, [listing.folder]);

  const entries = useMemo(() => {
    const source = found ? hitEntries(found) : listing.entries;
    return sortEntries(source, sort.key, sort.descending);
  }, [listing.entries, found, sort]);
  const byId = useMemo(() => new Map(entries.map((e) => [e.id, e])), [entries]);
  const viewable = useMemo(() => entries.flatMap((e): Viewable[] => (e.kind === 'file' ? [{ kind: 'file', item: e.file }] : [])), [entries]);

  const search = (event: Event) => {
    event.preventDefault();
    setSearchError(null);
    if (query.trim() === '') return setFound(null);
    api.search(query, folderId).then(
      (hits) => (rememberPaths([...hits.files, ...hits.folders].map((hit) => hit.path)), setFound(hits)),
      (err: unknown) => (setFound(null), setSearchError(err)),
    );
  };
  const toggle = (entry: Entry) => {
    const next = new Set(selected);
    if (next.has(entry.id)) next.delete(entry.id);
    else next.add(entry.id);
    setSelected(next);
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (event.dataTransfer?.types.includes('Files')) void fromDrop(event.dataTransfer).then((picked) => uploads.enqueue(picked, folderId, encrypt));
  };

  const dropOnFolder = (ids: string[], to: string) => {
    const moving = (selected.has(ids[0] ?? '') ? [...selected] : ids).map((id) => byId.get(id)).filter((e): e is Entry => !!e);
    setMoveProblem(null);
    moveEntries(moving.filter((e) => e.id !== to), to).then(() => (setSelected(new Set()), reload()), setMoveProblem);
  };

  const columns = layout === 'grid' ? Math.max(1, Math.floor(width / TILE_WIDTH)) : 1;
  const rowCount = Math.ceil(entries.length / columns);
  const crumbs = breadcrumbs(folderId);
  const highlighted = found || viewing === null ? -1 : entries.findIndex((entry) => entry.id === viewing);

  return (
    <section
      class={`files card${dragging ? ' drop-target' : ''}`}
      aria-label="Files"
      onDragOver={(e) => e.dataTransfer?.types.includes('Files') && (e.preventDefault(), setDragging(true))}
      onDragLeave={() => setDragging(false)}
      onDrop={drop}
      ref={(el) => {
        if (el && el.clientWidth !== width) setWidth(el.clientWidth);
      }}
    >
      <nav aria-label="Breadcrumbs" class="crumbs">
        {crumbs.map((crumb, i) =>
          i === crumbs.length - 1 ? (
            <span key={crumb.id ?? 'home'} aria-current="page">
              {crumb.name}
            </span>
          ) : (
            <Link key={crumb.id ?? 'home'} href={crumb.id ? `/files/${encodeURIComponent(crumb.id)}` : '/'}>
              {crumb.name}
            </Link>
          ),
        )}
      </nav>
      <h1>{listing.folder?.name ?? 'Files'}</h1>
      <Toolbar
        folderId={folderId}
        onChanged={reload}
        onPick={(files) => files && void uploads.enqueue(fromInput(files), folderId, encrypt)}
        encrypt={encrypt}
        onEncrypt={setEncrypt}
      />
      <p class="muted drop-hint">Drop files or whole folders anywhere here to upload them.</p>
      <UploadList queue={uploads} />
      <div class="row controls">
        <form role="search" class="row" onSubmit={search}>
          <input type="search" maxLength={256} aria-label="Search names" placeholder={folderId ? 'Search this folder' : 'Search everything'} value={query}
            onInput={(e) => setQuery(e.currentTarget.value)} />
          <button type="submit">Search</button>
          {found && <button type="button" onClick={() => (setFound(null), setQuery(''))}>Clear</button>}
        </form>
        <label>
          Sort
          <select value={`${sort.key}-${sort.descending ? 'desc' : 'asc'}`} onChange={(e) => {
            const [key, dir] = e.currentTarget.value.split('-');
            setSort({ key: key as SortKey, descending: dir === 'desc' });
          }}>
            <option value="name-asc">Name A–Z</option>
            <option value="name-desc">Name Z–A</option>
            <option value="size-desc">Largest first</option>
            <option value="size-asc">Smallest first</option>
            <option value="updated-desc">Newest first</option>
            <option value="updated-asc">Oldest first</option>
          </select>
        </label>
        <button type="button" aria-pressed={layout === 'grid'} onClick={() => setLayout(layout === 'list' ? 'grid' : 'list')}>
          {layout === 'list' ? 'Grid view' : 'List view'}
        </button>
      </div>
      <BulkBar selected={[...selected].map((id) => byId.get(id)).filter((e): e is Entry => !!e)} onDone={() => (setSelected(new Set()), reload())} />
      {panel && <ActionPanel entry={panel.entry} rename={panel.rename} onClose={() => setPanel(null)} onChanged={reload} />}
      <ErrorNote error={searchError} />
      <ErrorNote error={listing.error} />
      <ErrorNote error={moveProblem} />
      <p class="muted" role="status">
        {found ? `${formatCount(entries.length, 'match', 'matches')}` : `${formatCount(entries.length, 'item', 'items')}${listing.more ? ', loading more…' : ''}`}
      </p>
      {!listing.more && entries.length === 0 && !listing.error && (
        <p class="empty">{found ? 'Nothing matches.' : 'This folder is empty. Upload files or create a folder.'}</p>
      )}
      {viewId && <Viewer id={viewId} items={viewable} load={loadFile} onChanged={reload} />}
      <VirtualRows count={rowCount} rowHeight={ROW_HEIGHT[layout]} label={found ? 'Search results' : (listing.folder?.name ?? 'Files')}
        scrollToRow={highlighted < 0 ? null : Math.floor(highlighted / columns)}>
        {(row) => (
          <div class={layout === 'grid' ? 'tiles' : 'line'}>
            {entries.slice(row * columns, row * columns + columns).map((entry) => (
              <EntryView key={entry.id} entry={entry} layout={layout} selected={selected.has(entry.id)} highlighted={entry.id === viewing && !found} onToggle={() => toggle(entry)}
                onActions={(e, rename) => setPanel({ entry: e, rename })} onDropEntries={dropOnFolder} onChanged={reload} />
            ))}
          </div>
        )}
      </VirtualRows>
    </section>
  );
}
