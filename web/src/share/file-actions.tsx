import { archiveUrl, fileUrl } from './share-api.js';

interface Props {
  shareId: string;
  /** A file inside a shared folder or collection; null for the shared file itself. */
  fileId: string | null;
  name: string;
  label?: string;
}

/**
 * A plain link: an unlocked share's grant cookie goes with it, so a protected share downloads the same way as an
 * open one, streamed by the browser to disk (nothing held in the page's memory).
 */
export function DownloadLink({ shareId, fileId, name, label = 'Download' }: Props) {
  return (
    <a class="button" href={fileUrl(shareId, fileId, 'download')} download={name}>
      {label}
    </a>
  );
}

/**
 * The whole shared folder or collection, or one folder inside a shared folder, as one .zip streamed by the server as
 * it is built (counts one download).
 */
export function ZipLink({ shareId, folderId = null }: { shareId: string; folderId?: string | null }) {
  return (
    <div class="actions">
      <a class="button" href={archiveUrl(shareId, folderId)} download>
        {folderId === null ? 'Download all (.zip)' : 'Download this folder (.zip)'}
      </a>
    </div>
  );
}
