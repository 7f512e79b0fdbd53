import { useState } from 'preact/hooks';

/** A value to copy (a link, a token), selectable, with a Copy button that says whether the clipboard took it. */
export function CopyField({ value, label, button }: { value: string; label: string; button: string }) {
  const [said, setSaid] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setSaid('Copied');
    } catch {
      setSaid(`Select the ${label.toLowerCase()} and copy it`);
    }
  };
  return (
    <span class="copy-link">
      <input readOnly value={value} aria-label={label} spellcheck={false} onFocus={(e) => e.currentTarget.select()} />
      <button type="button" onClick={() => void copy()}>
        {button}
      </button>
      <span role="status">{said}</span>
    </span>
  );
}

/** The share's address, to copy. */
export function CopyLink({ url }: { url: string }) {
  return <CopyField value={url} label="Share link" button="Copy link" />;
}
