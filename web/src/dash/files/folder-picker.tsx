import { useEffect, useState } from 'preact/hooks';
import { api, type FolderView } from '../api.js';
import { FolderIcon } from '../icons.js';
import { ErrorNote } from '../ui.js';

interface Level {
  id: string | null;
  name: string;
}

/** Browse folders level by level and choose one (or the top level) as the destination of a move. */
export function FolderPicker({
  title,
  excluded,
  onPick,
  onCancel,
}: {
  title: string;
  /** Folders being moved: a folder cannot go into itself or below. */
  excluded: Set<string>;
  onPick: (folderId: string | null) => void;
  onCancel: () => void;
}) {
  const [trail, setTrail] = useState<Level[]>([{ id: null, name: 'Home' }]);
  const [folders, setFolders] = useState<FolderView[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const here = trail[trail.length - 1] ?? { id: null, name: 'Home' };

  useEffect(() => {
    setFolders(null);
    const load = here.id === null ? api.rootPage(null).then((page) => page.folders) : api.folder(here.id).then((f) => f.folders);
    load.then(setFolders, setError);
  }, [here.id]);

  return (
    <div class="inline-dialog" role="group" aria-label={title}>
      <h3>{title}</h3>
      <p class="crumbs">
        {trail.map((level, i) => (
          <button type="button" class="link-button" key={level.id ?? 'home'} onClick={() => setTrail(trail.slice(0, i + 1))}>
            {level.name}
          </button>
        ))}
      </p>
      <ErrorNote error={error} />
      <ul class="plain-list picker">
        {folders?.filter((f) => !excluded.has(f.id)).map((folder) => (
          <li key={folder.id}>
            <button type="button" class="link-button" onClick={() => setTrail([...trail, { id: folder.id, name: folder.name }])}>
              <FolderIcon /> {folder.name}
            </button>
          </li>
        ))}
        {folders?.length === 0 && <li class="muted">No folders here.</li>}
      </ul>
      <div class="row">
        <button type="button" class="primary" onClick={() => onPick(here.id)}>
          Move to {here.name}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
