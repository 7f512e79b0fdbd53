import { useState } from 'preact/hooks';

/** The share's address, selectable, with a Copy button that says whether the clipboard took it. */
export function CopyLink({ url }: { url: string }) {
  const [said, setSaid] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setSaid('Copied');
    } catch {
      setSaid('Select the link and copy it');
    }
  };
  return (
    <span class="copy-link">
      <input readOnly value={url} aria-label="Share link" onFocus={(e) => e.currentTarget.select()} />
      <button type="button" onClick={() => void copy()}>
        Copy link
      </button>
      <span role="status">{said}</span>
    </span>
  );
}
