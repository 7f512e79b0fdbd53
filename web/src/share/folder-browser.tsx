import { useState } from 'preact/hooks';
import { formatCount } from '../format.js';
import { FileList } from './file-list.js';
import { ZipLink } from './file-actions.js';
import { folderPath, type FolderView } from './share-api.js';
import { useLoad } from './use-load.js';

interface Props {
  shareId: string;
  folderId: string;
  costly: boolean;
}

function Breadcrumbs({ trail, onGo }: { trail: FolderView[]; onGo(depth: number): void }) {
  return (
    <nav aria-label="Folder path" class="breadcrumbs">
      <ol>
        {trail.map((folder, depth) => (
          <li key={folder.id}>
            {depth === trail.length - 1 ? (
              <span aria-current="location">{folder.name}</span>
            ) : (
              <button type="button" class="link" onClick={() => onGo(depth)}>
                {folder.name}
              </button>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/**
 * The shared folder's tree, read once (the API answers a folder with its whole subtree, bounded), then walked in the
 * page: opening a subfolder asks the server nothing.
 */
export function FolderBrowser({ shareId, folderId, costly }: Props) {
  const tree = useLoad<FolderView>(folderPath(shareId, folderId));
  const [trail, setTrail] = useState<string[]>([]);

  if (tree.kind === 'loading') return <p role="status">Loading the folder…</p>;
  if (tree.kind === 'failed') return <p class="problem">{tree.message}</p>;

  const folders: FolderView[] = [tree.value];
  for (const id of trail) {
    const next = folders[folders.length - 1]!.folders.find((child) => child.id === id);
    if (!next) break;
    folders.push(next);
  }
  const here = folders[folders.length - 1]!;

  return (
    <section class="browser" aria-label="Folder contents">
      <ZipLink shareId={shareId} />
      <Breadcrumbs trail={folders} onGo={(depth) => setTrail(trail.slice(0, depth))} />
      {here.folders.length === 0 && here.files.length === 0 && <p class="note">This folder is empty.</p>}
      {here.folders.length > 0 && (
        <ul class="folder-list" aria-label="Folders">
          {here.folders.map((child) => (
            <li key={child.id}>
              <button type="button" class="link folder-link" onClick={() => setTrail([...trail, child.id])}>
                <span aria-hidden="true">📁 </span>
                {child.name}
              </button>
              <span class="file-size">
                {formatCount(child.files.length, 'file', 'files')},{' '}
                {formatCount(child.folders.length, 'folder', 'folders')}
              </span>
            </li>
          ))}
        </ul>
      )}
      <FileList key={here.id} shareId={shareId} files={here.files} costly={costly} />
    </section>
  );
}
