import { useEffect, useState } from 'preact/hooks';
import { keyFromFragment } from '../common/e2e/file-key.js';
import { openPaste, type PastePlain } from '../common/e2e/paste.js';
import { PasteView } from './paste-view.js';

/** An end-to-end encrypted paste, opened with the key of the link's fragment; a sentence when it cannot be. */
export function EncryptedPaste({ shareId, sealed, onName }: { shareId: string; sealed: string; onName: (name: string) => void }) {
  const [state, setState] = useState<PastePlain | 'opening' | 'no-key' | 'wrong-key'>('opening');
  useEffect(() => {
    const key = keyFromFragment(location.hash);
    if (!key) return setState('no-key');
    let live = true;
    openPaste(key, sealed).then(
      (paste) => {
        if (!live) return;
        onName(paste.name);
        setState(paste);
      },
      () => live && setState('wrong-key'),
    );
    return () => {
      live = false;
    };
  }, [sealed]);
  if (state === 'opening') return <p role="status">Decrypting…</p>;
  if (state === 'no-key') {
    return (
      <p class="problem" role="alert">
        This paste is end-to-end encrypted and this link has no key, so it cannot be read: ask whoever shared it for the
        whole link (it ends in “#k=” and a key).
      </p>
    );
  }
  if (state === 'wrong-key') {
    return (
      <p class="problem" role="alert">
        The key in this link does not open this paste: the link is wrong or incomplete.
      </p>
    );
  }
  return <PasteView shareId={shareId} content={state.content} type={state.type} raw={false} />;
}
