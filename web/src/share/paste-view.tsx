import { useRef, useState } from 'preact/hooks';
import { CodeView } from '../common/code/code-view.js';
import { languageOf } from '../common/code/languages.js';
import { fileUrl } from './share-api.js';

interface Props {
  shareId: string;
  content: string;
  type: string;
  /** Offer the stored text alone (Raw); not for an encrypted paste, whose stored text is ciphertext. */
  raw?: boolean;
}

/** Selects the paste's text so the visitor can copy it by hand when the clipboard is out of reach (plain HTTP). */
function select(element: HTMLElement): void {
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}

/** A paste's text, coloured by its type, with Copy and Raw (the text alone, as text/plain). */
export function PasteView({ shareId, content, type, raw = true }: Props) {
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
        {raw && (
          <a class="button secondary" href={fileUrl(shareId, null, 'download')}>
            Raw
          </a>
        )}
        <span class="status" role="status">
          {status}
        </span>
      </div>
      <CodeView text={content} language={languageOf(type)} label="Paste content" codeRef={text} />
    </>
  );
}
