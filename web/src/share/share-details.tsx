import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { ShareView } from '../api.js';
import { formatCount, formatDate, formatSize } from '../format.js';
import { FileActions } from './file-actions.js';
import { PasteView } from './paste-view.js';

interface Props {
  share: ShareView;
  /** The password that opened the share; downloads need it again. */
  password: string | null;
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
export function ShareDetails({ share, password }: Props) {
  const heading = useRef<HTMLHeadingElement>(null);
  const name = share.file?.name ?? share.paste?.name ?? share.folder?.name ?? share.collection?.name ?? 'Share';

  useEffect(() => {
    document.title = `${name} · Coffer`;
    // After a password opened it, the share replaces the form: move focus to what appeared.
    if (password !== null) heading.current?.focus();
  }, [name, password]);

  return (
    <article class="card" aria-labelledby="share-title">
      <p class="kind">{KIND_LABEL[share.type]}</p>
      <h1 id="share-title" class="name" tabIndex={-1} ref={heading}>
        {name}
      </h1>
      <dl class="facts">
        {share.file && (
          <Fact term="Size">
            <Size size={share.file.size} />
          </Fact>
        )}
        {share.file && <Fact term="Type">{share.file.mime}</Fact>}
        {share.paste && <Fact term="Language">{share.paste.type}</Fact>}
        {share.folder && <Fact term="Contents">{folderContents(share.folder)}</Fact>}
        {share.collection && (
          <Fact term="Contents">{formatCount(share.collection.fileCount, 'file', 'files')}</Fact>
        )}
        <Fact term="Shared by">{share.owner.username}</Fact>
        <Fact term="Shared on">
          <time dateTime={share.createdAt}>{formatDate(share.createdAt)}</time>
        </Fact>
      </dl>
      {share.file && <FileActions shareId={share.id} name={share.file.name} password={password} />}
      {share.paste && <PasteView shareId={share.id} content={share.paste.content} password={password} />}
      {(share.folder ?? share.collection) && (
        <p class="note">Browsing and downloading its files from this page is not available yet.</p>
      )}
    </article>
  );
}

function folderContents(folder: NonNullable<ShareView['folder']>): string {
  return `${formatCount(folder.fileCount, 'file', 'files')}, ${formatCount(folder.folderCount, 'folder', 'folders')}`;
}
