import { useState } from 'preact/hooks';
import { contentUrl, downloadWithPassword } from '../api.js';

interface Props {
  shareId: string;
  name: string;
  password: string | null;
}

/**
 * Download: a plain link when the share is open; with a password, a fetch that sends it as a header (a link cannot)
 * and saves the bytes from memory.
 */
export function FileActions({ shareId, name, password }: Props) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');

  if (password === null) {
    return (
      <div class="actions">
        <a class="button" href={contentUrl(shareId)} download={name}>
          Download
        </a>
      </div>
    );
  }

  const download = async () => {
    setBusy(true);
    setProblem('');
    try {
      await downloadWithPassword(shareId, password, name);
    } catch (err) {
      setProblem(err instanceof Error ? err.message : 'The download failed.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="actions">
      <button type="button" class="button" onClick={download} disabled={busy}>
        {busy ? 'Downloading…' : 'Download'}
      </button>
      <p class="problem" role="alert">
        {problem}
      </p>
    </div>
  );
}
