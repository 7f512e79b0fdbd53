import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { formatDate, formatSize } from '../common/format.js';
import { CodeView } from '../common/code/code-view.js';
import { languageOf } from '../common/code/languages.js';
import { Preview, previewKind } from '../common/preview.js';
import { api, type FileView, type PasteView } from './api.js';
import { closeViewer, switchViewer } from './routes.js';
import { ShareDialog } from './share-dialog.js';
import { ErrorNote } from './ui.js';

/** What the viewer can show: one of the owner's files or pastes. */
export type Viewable = { kind: 'file'; item: FileView } | { kind: 'paste'; item: PasteView };

interface Props {
  /** The id in the address (`?view=`). */
  id: string;
  /** The listing it was opened from, in its order: ← and → step through it. */
  items: readonly Viewable[];
  /** Fetches an item the listing does not hold (a deep link, a search hit): reloads reopen the viewer. */
  load: (id: string) => Promise<Viewable>;
  onChanged?: () => void;
}

// What the browser shows by itself in a tab; everything else is served as an attachment and would only download.
const OPENS_IN_TAB = new Set(['image', 'video', 'audio']);

// Keys that belong to what has focus: typing, a player's seek, a select's choice.
const OWNS_KEYS = 'input, textarea, select, video, audio, [contenteditable]';

function useViewable(id: string, items: readonly Viewable[], load: Props['load']) {
  const listed = items.find((entry) => entry.item.id === id) ?? null;
  const [fetched, setFetched] = useState<{ id: string; value: Viewable } | { id: string; error: unknown } | null>(null);
  useEffect(() => {
    if (listed || fetched?.id === id) return;
    let live = true;
    load(id).then(
      (value) => live && setFetched({ id, value }),
      (error: unknown) => live && setFetched({ id, error }),
    );
    return () => {
      live = false;
    };
  }, [id, listed]);
  if (listed) return { value: listed };
  if (fetched?.id !== id) return { loading: true as const };
  return 'value' in fetched ? { value: fetched.value } : { error: fetched.error };
}

function PasteBody({ paste }: { paste: PasteView }) {
  const [status, setStatus] = useState('');
  const copy = () =>
    navigator.clipboard.writeText(paste.content).then(
      () => setStatus('Copied to the clipboard.'),
      () => setStatus('The clipboard is out of reach here: select the text and copy it by hand.'),
    );
  return (
    <>
      <div class="actions">
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
        <span role="status">{status}</span>
      </div>
      <CodeView text={paste.content} language={languageOf(paste.type)} label={`Text of ${paste.name || 'the paste'}`} />
    </>
  );
}

function FileBody({ file }: { file: FileView }) {
  if (previewKind(file) === null) return <p class="note">No preview for this kind of file: download it to open it.</p>;
  return (
    <div class="preview">
      <Preview src={api.contentUrl(file.id)} download={api.contentUrl(file.id)} file={file} costly={false} />
    </div>
  );
}

function Facts({ entry }: { entry: Viewable }) {
  const parts =
    entry.kind === 'file'
      ? [formatSize(entry.item.size), entry.item.mime, formatDate(entry.item.createdAt)]
      : [entry.item.type, formatSize(entry.item.size), formatDate(entry.item.createdAt)];
  return <p class="muted viewer-facts">{parts.join(' · ')}</p>;
}

/** Keeps Tab inside the dialog while it is open. */
function trapTab(event: KeyboardEvent, dialog: HTMLElement | null) {
  if (event.key !== 'Tab' || !dialog) return;
  const focusable = [...dialog.querySelectorAll<HTMLElement>('a[href], button, [tabindex="0"], video, audio, input, select, textarea')];
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  const wrapTo = event.shiftKey ? (document.activeElement === first ? last : null) : document.activeElement === last ? first : null;
  if (!wrapTo) return;
  event.preventDefault();
  wrapTo.focus();
}

/**
 * The owner's viewer: a file or paste shown with the share page's own preview components (the same serving rules:
 * the bytes come from the owner's content route, sandboxed, active content only ever as source text), with
 * Download, Share and Open in a new tab. ← and → move through the listing, Esc closes, and the address names the
 * open item, so Back closes it and a reload reopens it.
 */
export function Viewer({ id, items, load, onChanged }: Props) {
  const state = useViewable(id, items, load);
  const dialog = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const [sharing, setSharing] = useState(false);
  const index = items.findIndex((entry) => entry.item.id === id);
  const step = (by: number) => {
    const next = items[index + by];
    if (index >= 0 && next) switchViewer(next.item.id);
  };

  const shown = useRef(id);
  shown.current = id;
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    // Focus goes back where it came from, or (opened by its address, or stepped on) to the item's own link.
    return () => {
      const link = document.querySelector<HTMLElement>(`a[href$="?view=${CSS.escape(encodeURIComponent(shown.current))}"]`);
      (shown.current !== id || !opener?.isConnected ? link : opener)?.focus();
    };
  }, []);
  useEffect(() => {
    setSharing(false);
    heading.current?.focus();
  }, [id, 'value' in state]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === 'Escape') return (event.preventDefault(), closeViewer());
      trapTab(event, dialog.current);
      if ((event.target as Element | null)?.closest?.(OWNS_KEYS)) return;
      const by = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
      if (by === undefined) return;
      event.preventDefault();
      step(by);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  const entry = 'value' in state ? state.value : null;
  const name = entry ? entry.item.name || 'Untitled' : 'Loading…';
  useEffect(() => {
    const before = document.title;
    document.title = `${name} · Coffer`;
    return () => void (document.title = before);
  }, [name]);

  let body: ComponentChildren;
  if ('error' in state) body = <ErrorNote error={state.error} />;
  else if (!entry) body = <p role="status">Loading…</p>;
  else body = entry.kind === 'file' ? <FileBody file={entry.item} /> : <PasteBody paste={entry.item} />;

  return (
    <div class="viewer-backdrop" onClick={(e) => e.target === e.currentTarget && closeViewer()}>
      <div class="viewer" role="dialog" aria-modal="true" aria-labelledby="viewer-title" ref={dialog}>
        <header class="viewer-head">
          <h2 id="viewer-title" tabIndex={-1} ref={heading}>
            {name}
          </h2>
          <button type="button" class="viewer-close" aria-label="Close the viewer (Esc)" onClick={closeViewer}>
            ×
          </button>
        </header>
        {entry && <Facts entry={entry} />}
        {entry && (
          <div class="actions viewer-actions">
            {entry.kind === 'file' && (
              <>
                <a class="button" href={api.contentUrl(entry.item.id)} download={entry.item.name}>
                  Download
                </a>
                {OPENS_IN_TAB.has(previewKind(entry.item) ?? '') && (
                  <a class="button" href={api.contentUrl(entry.item.id)} target="_blank" rel="noopener noreferrer">
                    Open in a new tab
                  </a>
                )}
              </>
            )}
            <button type="button" aria-expanded={sharing} onClick={() => setSharing(!sharing)}>
              Share
            </button>
            <span class="viewer-steps">
              <button type="button" disabled={index <= 0} onClick={() => step(-1)} aria-label="Previous (←)">
                ←
              </button>
              <button type="button" disabled={index < 0 || index >= items.length - 1} onClick={() => step(1)} aria-label="Next (→)">
                →
              </button>
            </span>
          </div>
        )}
        {entry && sharing && (
          <ShareDialog type={entry.kind} id={entry.item.id} name={entry.item.name} url={entry.item.url}
            onDone={() => (setSharing(false), onChanged?.())} />
        )}
        <div class="viewer-body">{body}</div>
      </div>
    </div>
  );
}
