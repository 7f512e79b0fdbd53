import { useEffect, useState } from 'preact/hooks';
import { api, type CollectionView } from '../api.js';
import { ConfirmButton, ErrorNote, useAction } from '../ui.js';
import type { Entry } from './entries.js';
import { FolderPicker } from './folder-picker.js';
import { deleteEntries, moveEntries } from './move.js';

/** What can be done to several selected entries at once: move, delete, add (the files) to a collection. */
export function BulkBar({ selected, onDone }: { selected: Entry[]; onDone: () => void }) {
  const [moving, setMoving] = useState(false);
  const [collections, setCollections] = useState<CollectionView[] | null>(null);
  const [target, setTarget] = useState('');
  const [busy, error, run] = useAction();
  useEffect(() => {
    if (selected.length > 0 && collections === null) api.collections().then(setCollections, () => setCollections([]));
  }, [selected.length > 0]);
  if (selected.length === 0) return <ErrorNote error={error} />;
  const files = selected.filter((entry) => entry.kind === 'file');
  const folders = new Set(selected.filter((entry) => entry.kind === 'folder').map((entry) => entry.id));
  return (
    <div class="bulk inline-dialog" role="group" aria-label="Selected items">
      <div class="row">
        <strong>{selected.length} selected</strong>
        <button type="button" onClick={() => setMoving(true)}>
          Move
        </button>
        <ConfirmButton label="Delete" confirm={`Delete ${selected.length} items?`} onConfirm={() => run(async () => (await deleteEntries(selected), onDone()))} />
        {files.length > 0 && collections && collections.length > 0 && (
          <form class="row" onSubmit={(e) => (e.preventDefault(), void run(async () => {
            for (const file of files) await api.addToCollection(target, file.id);
            onDone();
          }))}>
            <select aria-label="Collection" value={target} onChange={(e) => setTarget(e.currentTarget.value)} required>
              <option value="">Collection…</option>
              {collections.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
            <button type="submit" disabled={busy}>
              Add to collection
            </button>
          </form>
        )}
      </div>
      {moving && (
        <FolderPicker title={`Move ${selected.length} items`} excluded={folders} onCancel={() => setMoving(false)}
          onPick={(to) => void run(async () => (await moveEntries(selected, to), setMoving(false), onDone()))} />
      )}
      <ErrorNote error={error} />
    </div>
  );
}
