import { useState } from 'preact/hooks';
import { formatSize } from '../common/format.js';
import { previewKind } from '../common/preview.js';
import { PreviewSlot } from './preview-slot.js';
import { fileUrl, type FileView } from './share-api.js';

interface Props {
  shareId: string;
  files: FileView[];
  /** Previews cost a download on this share (it has a download maximum). */
  costly: boolean;
}

function FileRow({ shareId, file, costly }: { shareId: string; file: FileView; costly: boolean }) {
  const [open, setOpen] = useState(false);
  const previewId = `preview-${file.id}`;
  return (
    <li class="file-row">
      <div class="file-line">
        <span class="file-name">{file.name}</span>
        <span class="file-size">{formatSize(file.size)}</span>
        <span class="file-buttons">
          {previewKind(file) !== null && (
            <button
              type="button"
              class="button secondary small"
              aria-expanded={open}
              aria-controls={previewId}
              aria-label={`${open ? 'Hide' : 'Preview'} ${file.name}`}
              onClick={() => setOpen(!open)}
            >
              {open ? 'Hide' : 'Preview'}
            </button>
          )}
          <a
            class="button small"
            href={fileUrl(shareId, file.id, 'download')}
            download={file.name}
            aria-label={`Download ${file.name}`}
          >
            Download
          </a>
        </span>
      </div>
      {open && (
        <div id={previewId}>
          <PreviewSlot
            src={fileUrl(shareId, file.id, 'preview')}
            download={fileUrl(shareId, file.id, 'download')}
            file={file}
            costly={costly}
          />
        </div>
      )}
    </li>
  );
}

/** The files of one folder level, each with its own preview and download. */
export function FileList({ shareId, files, costly }: Props) {
  if (files.length === 0) return null;
  return (
    <ul class="file-list" aria-label="Files">
      {files.map((file) => (
        <FileRow key={file.id} shareId={shareId} file={file} costly={costly} />
      ))}
    </ul>
  );
}
