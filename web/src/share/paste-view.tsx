import { useRef, useState } from 'preact/hooks';
import { contentUrl } from '../api.js';

interface Props {
  shareId: string;
  content: string;
  password: string | null;
}

/** Selects the paste's text so the visitor can copy it by hand when the clipboard is out of reach (plain HTTP). */
function select(element: HTMLElement): void {
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}

/** A paste's text, as text: Preact sets it as a text node, so markup in it stays characters on the screen. */
export function PasteView({ shareId, content, password }: Props) {
  const [status, setStatus] = useState('');
  const text = useRef<HTMLElement>(null);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(content);
      setStatus('Copied to the clipboard.');
    } catch {
      if (text.current) select(text.current);
      setStatus('The text is selected: press Ctrl+C (or ⌘C) to copy it.');
    }
  };

  return (
    <>
      <div class="actions">
        <button type="button" class="button" onClick={copy}>
          Copy
        </button>
        {password === null && (
          <a class="button secondary" href={contentUrl(shareId)}>
            Raw
          </a>
        )}
        <span class="status" role="status">
          {status}
        </span>
      </div>
      <pre class="paste" tabIndex={0} aria-label="Paste content">
        <code ref={text}>{content}</code>
      </pre>
    </>
  );
}
