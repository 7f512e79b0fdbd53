import { useEffect, useState } from 'preact/hooks';
import { keptKey } from '../e2e-keys.js';

/**
 * An end-to-end encrypted file's note: its key is only in its share link. Uploaded from this browser, the link with
 * its key was kept here (IndexedDB) and can be copied again; anywhere else, it says so.
 */
export function EncryptedNote({ fileId, name }: { fileId: string; name: string }) {
  const [link, setLink] = useState<string | null | undefined>(undefined);
  const [status, setStatus] = useState('');
  useEffect(() => {
    let live = true;
    void keptKey(fileId).then((kept) => live && setLink(kept?.link ?? null));
    return () => {
      live = false;
    };
  }, [fileId]);
  if (link === undefined) return null;
  if (link === null) {
    return (
      <p class="note">
        Encrypted end to end. Its key is only in the share link made when it was uploaded, and this browser does not
        have it: the server cannot decrypt it, and neither can this dashboard.
      </p>
    );
  }
  const copy = () =>
    navigator.clipboard.writeText(link).then(
      () => setStatus('Copied.'),
      () => setStatus('Select the link and copy it by hand.'),
    );
  return (
    <p class="note encrypted-link">
      Encrypted end to end; this browser kept its key.{' '}
      <input readOnly value={link} aria-label={`Link with key of ${name}`} onFocus={(e) => e.currentTarget.select()} />{' '}
      <button type="button" onClick={copy}>
        Copy link with key
      </button>{' '}
      <span role="status">{status}</span>
    </p>
  );
}
