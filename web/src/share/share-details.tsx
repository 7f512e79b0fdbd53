import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ShareView } from './api.js';
import { formatCount, formatDate, formatSize } from '../common/format.js';
import { CollectionGrid } from './collection-grid.js';
import { EncryptedFile } from './encrypted-file.js';
import { DownloadLink } from './file-actions.js';
import { FolderBrowser } from './folder-browser.js';
import { EncryptedPaste } from './encrypted-paste.js';
import { PasteView } from './paste-view.js';
import { PreviewSlot } from './preview-slot.js';
import { fileUrl } from './share-api.js';

interface Props {
  share: ShareView;
  /** The share was just unlocked in this page: focus moves to it. */
  unlocked: boolean;
  /** A folder share's page opened at this folder (its own address); null: the shared folder. */
  folderId: string | null;
}

const KIND_LABEL: Record<ShareView['type'], string> = {
  file: 'Shared file',
  folder: 'Shared folder',
  collection: 'Shared collection',
  paste: 'Shared paste',
};

function Fact({ term, children }: { term: string; children: ComponentChildren }) {
  return (
    <div class="fact">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** Short, then exact when they differ: "12.3 MB" over "12,345,678 bytes". */
function Size({ size }: { size: string }) {
  const bytes = Number(size);
  if (bytes < 1000) return <>{formatSize(size)}</>;
  return (
    <>
      {formatSize(size)}
      <span class="exact">{formatCount(bytes, 'byte', 'bytes')}</span>
    </>
  );
}

/** What a share holds, every name and text shown as text. */
export function ShareDetails({ share, unlocked, folderId }: Props) {
  const heading = useRef<HTMLHeadingElement>(null);
  // An encrypted file's real name is known only once its key opened it.
  const [openedName, setOpenedName] = useState<string | null>(null);
  const encrypted = share.file?.encrypted === true || share.paste?.encrypted === true;
  const name =
    (encrypted ? (openedName ?? (share.paste ? 'Encrypted paste' : 'Encrypted file')) : null) ??
    share.file?.name ?? share.paste?.name ?? share.folder?.name ?? share.collection?.name ?? 'Share';

  useEffect(() => {
    document.title = `${name} · Coffer`;
    // After a password opened it, the share replaces the form: move focus to what appeared.
    if (unlocked) heading.current?.focus();
  }, [name, unlocked]);
  // Loading bytes for a preview uses a download only where downloads are limited.
  const costly = share.maxDownloads !== null;

  return (
    <article class="card" aria-labelledby="share-title">
      <p class="kind">{KIND_LABEL[share.type]}</p>
      <h1 id="share-title" class="name" tabIndex={-1} ref={heading}>
        {name}
      </h1>
      <dl class="facts">
        {share.file && !encrypted && (
          <Fact term="Size">
            <Size size={share.file.size} />
          </Fact>
        )}
        {share.file && !encrypted && <Fact term="Type">{share.file.mime}</Fact>}
        {share.paste && !encrypted && <Fact term="Language">{share.paste.type}</Fact>}
        {share.folder && <Fact term="Contents">{folderContents(share.folder)}</Fact>}
        {share.collection && <Fact term="Contents">{formatCount(share.collection.fileCount, 'file', 'files')}</Fact>}
        <Fact term="Shared by">{share.owner.username}</Fact>
        <Fact term="Shared on">
          <time dateTime={share.createdAt}>{formatDate(share.createdAt)}</time>
        </Fact>
      </dl>
      {share.file && encrypted && (
        <EncryptedFile share={{ ...share, file: share.file }} costly={costly} onName={setOpenedName} />
      )}
      {share.file && !encrypted && (
        <>
          <div class="actions">
            <DownloadLink shareId={share.id} fileId={null} name={share.file.name} />
          </div>
          <PreviewSlot
            src={fileUrl(share.id, null, 'preview')}
            download={fileUrl(share.id, null, 'download')}
            file={share.file}
            costly={costly}
          />
        </>
      )}
      {share.paste && encrypted && <EncryptedPaste shareId={share.id} sealed={share.paste.content} onName={setOpenedName} />}
      {share.paste && !encrypted && <PasteView shareId={share.id} content={share.paste.content} type={share.paste.type} />}
      {share.folder && (
        <FolderBrowser shareId={share.id} rootId={share.folder.id} startAt={folderId} costly={costly} />
      )}
      {share.collection && <CollectionGrid shareId={share.id} collectionId={share.collection.id} costly={costly} />}
    </article>
  );
}

function folderContents(folder: NonNullable<ShareView['folder']>): string {
  return `${formatCount(folder.fileCount, 'file', 'files')}, ${formatCount(folder.folderCount, 'folder', 'folders')}`;
}
