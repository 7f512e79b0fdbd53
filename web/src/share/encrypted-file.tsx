import { useEffect, useState } from 'preact/hooks';
import { keyFromFragment } from '../common/e2e/file-key.js';
import { openMetadata, type FileMetadata } from '../common/e2e/metadata.js';
import { formatCount, formatSize } from '../common/format.js';
import { Preview, previewKind } from '../common/preview.js';
import type { ShareView } from './api.js';
import { e2eUrl } from './e2e-paths.js';
import { lendKey, workersAvailable } from './e2e-worker-client.js';

type State =
  | { step: 'opening' }
  | { step: 'no-key' }
  | { step: 'wrong-key' }
  | { step: 'open'; key: Uint8Array; metadata: FileMetadata; worker: 'lending' | 'ready' | string };

interface Props {
  share: ShareView & { file: NonNullable<ShareView['file']> };
  /** A preview uses a download of a share with a download maximum: shown only when asked, as for other files. */
  costly: boolean;
  onName: (name: string) => void;
}

/**
 * An end-to-end encrypted file: its key is in the link's fragment (`#k=…`), which the browser never sends. The name,
 * type and size are decrypted here; previews and the download are decrypted as they stream by the share page's
 * service worker (download-worker.ts), so the page never holds the file.
 */
export function EncryptedFile({ share, costly, onName }: Props) {
  const [state, setState] = useState<State>({ step: 'opening' });
  const [previewWanted, setPreviewWanted] = useState(!costly);
  const sealed = share.file.encryptedMetadata ?? '';

  useEffect(() => {
    const key = keyFromFragment(location.hash);
    if (!key) return setState({ step: 'no-key' });
    let live = true;
    openMetadata(key, sealed).then(
      (metadata) => {
        if (!live) return;
        onName(metadata.name);
        setState({ step: 'open', key, metadata, worker: 'lending' });
        lendKey(share.id, key, metadata).then(
          () => live && setState({ step: 'open', key, metadata, worker: 'ready' }),
          (err: unknown) => live && setState({ step: 'open', key, metadata, worker: err instanceof Error ? err.message : 'The download cannot start in this browser.' }),
        );
      },
      () => live && setState({ step: 'wrong-key' }),
    );
    return () => {
      live = false;
    };
  }, [share.id, sealed]);

  if (state.step === 'opening') return <p role="status">Decrypting…</p>;
  if (state.step === 'no-key') {
    return (
      <p class="problem" role="alert">
        This file is end-to-end encrypted and this link has no key, so it cannot be opened: ask whoever shared it for the
        whole link (it ends in “#k=” and a key).
      </p>
    );
  }
  if (state.step === 'wrong-key') {
    return (
      <p class="problem" role="alert">
        The key in this link does not open this file: the link is wrong or incomplete. Ask whoever shared it for the whole
        link.
      </p>
    );
  }
  const { metadata, worker } = state;
  const file = { name: metadata.name, mime: metadata.type, size: String(metadata.size) };
  const kind = previewKind(file);
  return (
    <>
      <dl class="facts">
        <div class="fact">
          <dt>Decrypted size</dt>
          <dd>
            {formatSize(String(metadata.size))}
            {metadata.size >= 1000 && <span class="exact">{formatCount(metadata.size, 'byte', 'bytes')}</span>}
          </dd>
        </div>
        <div class="fact">
          <dt>Type</dt>
          <dd>{metadata.type}</dd>
        </div>
        <div class="fact">
          <dt>Encryption</dt>
          <dd>End to end: decrypted in this browser with the key in the link</dd>
        </div>
      </dl>
      {worker === 'lending' && <p role="status">Preparing the decryption…</p>}
      {worker !== 'lending' && worker !== 'ready' && (
        <p class="problem" role="alert">
          {worker} {!workersAvailable() && 'Open the link in a browser with service workers (not a private window of some browsers).'}
        </p>
      )}
      {worker === 'ready' && (
        <>
          <div class="actions">
            {/* A navigation, not a `download` link: Chromium sends those past the service worker. The worker's
                answer is an attachment, so the page stays. */}
            <a class="button" href={e2eUrl(share.id, 'download')}>
              Download
            </a>
          </div>
          {kind === null ? (
            <p class="note">No preview for this kind of file: download it to open it.</p>
          ) : !previewWanted ? (
            <p class="note">
              <button type="button" class="button secondary" onClick={() => setPreviewWanted(true)}>
                Show preview
              </button>{' '}
              This share allows a limited number of downloads; a preview uses one.
            </p>
          ) : (
            <div class="preview">
              <Preview src={e2eUrl(share.id, 'inline')} download={e2eUrl(share.id, 'download')} file={file} costly />
            </div>
          )}
        </>
      )}
    </>
  );
}
