import type { ComponentChildren, Ref } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { formatCount } from '../common/format.js';
import { FileList } from './file-list.js';
import { ZipLink } from './file-actions.js';
import { folderPageUrl, folderPath, pageAddressOf, type FolderView } from './share-api.js';
import { useLoad } from './use-load.js';

interface Props {
  shareId: string;
  /** The shared folder. */
  rootId: string;
  /** The folder to open first (a folder's own address); null: the shared folder. */
  startAt: string | null;
  costly: boolean;
}

/** The folders from the shared one down to `id`, or null when the tree holds no such folder. */
function trailTo(root: FolderView, id: string): FolderView[] | null {
  if (root.id === id) return [root];
  for (const child of root.folders) {
    const below = trailTo(child, id);
    if (below) return [root, ...below];
  }
  return null;
}

/**
 * A real link to a folder's address (it opens in a new tab, copies, bookmarks), followed in the page: a plain click
 * or Enter moves there without loading the page again.
 */
function FolderLink({ href, onGo, class: className, children }: {
  href: string;
  onGo(): void;
  class?: string;
  children: ComponentChildren;
}) {
  const follow = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onGo();
  };
  return (
    <a class={className} href={href} onClick={follow}>
      {children}
    </a>
  );
}

interface CrumbsProps {
  trail: FolderView[];
  addressOf(id: string): string;
  onGo(id: string): void;
  here: Ref<HTMLSpanElement>;
}

function Breadcrumbs({ trail, addressOf, onGo, here }: CrumbsProps) {
  return (
    <nav aria-label="Folder path" class="breadcrumbs">
      <ol>
        {trail.map((folder, depth) => (
          <li key={folder.id}>
            {depth === trail.length - 1 ? (
              <span aria-current="location" tabIndex={-1} ref={here}>
                {folder.name}
              </span>
            ) : (
              <FolderLink class="link" href={addressOf(folder.id)} onGo={() => onGo(folder.id)}>
                {folder.name}
              </FolderLink>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/**
 * The shared folder's tree, read once (the API answers a folder with its whole subtree, bounded), then walked in the
 * page. Each folder has its own address below the share's (`/s/{id}/f/{folderId}`): opening one pushes it onto the
 * history, so Back and Forward move between folders, and a reload or the address opened elsewhere shows the same one.
 * Moving between folders asks the server nothing and counts nothing.
 */
export function FolderBrowser({ shareId, rootId, startAt, costly }: Props) {
  const tree = useLoad<FolderView>(folderPath(shareId, rootId));
  const [current, setCurrent] = useState(startAt ?? rootId);
  const here = useRef<HTMLSpanElement>(null);
  // Set when the person moved (a click, Back, Forward): focus then goes to where they arrived, not on first show.
  const moved = useRef(false);
  const addressOf = (id: string) => folderPageUrl(shareId, id === rootId ? null : id);

  useEffect(() => {
    const onPop = () => {
      const address = pageAddressOf(location.pathname);
      if (address?.shareId !== shareId) return;
      moved.current = true;
      setCurrent(address.folderId ?? rootId);
    };
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, [shareId, rootId]);

  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    here.current?.focus();
  }, [current]);

  const go = (id: string) => {
    if (id === current) return;
    history.pushState(null, '', addressOf(id));
    moved.current = true;
    setCurrent(id);
  };

  if (tree.kind === 'loading') return <p role="status">Loading the folder…</p>;
  if (tree.kind === 'failed') return <p class="problem">{tree.message}</p>;

  const trail = trailTo(tree.value, current);
  if (!trail) {
    return (
      <section class="browser" aria-label="Folder contents">
        <p class="problem">This folder is not part of this share. It may have been moved or deleted.</p>
        <FolderLink class="link" href={addressOf(rootId)} onGo={() => go(rootId)}>
          Open the shared folder
        </FolderLink>
      </section>
    );
  }
  const folder = trail[trail.length - 1]!;

  return (
    <section class="browser" aria-label="Folder contents">
      <ZipLink shareId={shareId} folderId={folder.id === rootId ? null : folder.id} />
      <Breadcrumbs trail={trail} addressOf={addressOf} onGo={go} here={here} />
      {folder.folders.length === 0 && folder.files.length === 0 && <p class="note">This folder is empty.</p>}
      {folder.folders.length > 0 && (
        <ul class="folder-list" aria-label="Folders">
          {folder.folders.map((child) => (
            <li key={child.id}>
              <FolderLink class="link folder-link" href={addressOf(child.id)} onGo={() => go(child.id)}>
                <span aria-hidden="true">📁 </span>
                {child.name}
              </FolderLink>
              <span class="file-size">
                {formatCount(child.files.length, 'file', 'files')},{' '}
                {formatCount(child.folders.length, 'folder', 'folders')}
              </span>
            </li>
          ))}
        </ul>
      )}
      <FileList key={folder.id} shareId={shareId} files={folder.files} costly={costly} />
    </section>
  );
}
