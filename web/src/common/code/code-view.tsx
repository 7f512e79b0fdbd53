import type { ComponentChildren, Ref } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { PLAIN_TEXT } from './languages.js';

// Past this, tokenizing would stall the page; the text is still shown, only uncoloured.
const HIGHLIGHT_MAX = 256 * 1024;

type Highlight = (text: string, language: string) => ComponentChildren;

let loading: Promise<Highlight> | null = null;
let loaded: Highlight | null = null;

/**
 * Prism and its grammars (highlighter.tsx), imported once, the first time some text is to be coloured: a chunk of
 * its own, so neither page's first load carries it. A failed import is forgotten, so a later view tries again.
 */
function loadHighlighter(): Promise<Highlight> {
  loading ??= import('./highlighter.js').then(
    (module) => (loaded = module.highlight),
    (err: unknown) => {
      loading = null;
      throw err;
    },
  );
  return loading;
}

const wantsColour = (language: string | null): language is string => language !== null && !PLAIN_TEXT.has(language);

/** Starts loading the highlighter for text of this language that is on its way (a file's preview, say). */
export function preloadHighlighter(language: string | null): void {
  if (wantsColour(language)) loadHighlighter().catch(() => undefined);
}

/**
 * The highlighter once it is here; null until then (the text shows plain meanwhile), and for good when it cannot be
 * loaded (offline, say).
 */
function useHighlighter(wanted: boolean): Highlight | null {
  const [, arrived] = useState(0);
  const rendered = loaded;
  // Asked for while rendering, as a lazy component is, so the chunk is on its way before the first paint.
  if (wanted && !rendered) loadHighlighter().catch(() => undefined);
  useEffect(() => {
    // What this render showed, not what is loaded now: a highlighter that arrived in between must still repaint.
    if (!wanted || rendered) return;
    let live = true;
    const settled = () => live && arrived((n) => n + 1);
    loadHighlighter().then(settled, settled);
    return () => {
      live = false;
    };
  }, [wanted]);
  return wanted ? rendered : null;
}

interface Props {
  text: string;
  /** A grammar name (languages.ts), or null for plain text. */
  language: string | null;
  label: string;
  codeRef?: Ref<HTMLElement>;
}

/**
 * Text shown as code, coloured by its language when one is known and the text is not huge: Prism's tokens as text
 * nodes, from a chunk loaded on first use, the text shown plain until it comes. One component for the share page
 * and the dashboard alike.
 */
export function CodeView({ text, language, label, codeRef }: Props) {
  const grammar = wantsColour(language) && text.length <= HIGHLIGHT_MAX ? language : null;
  const highlight = useHighlighter(grammar !== null);
  const shown = useMemo(() => (highlight && grammar ? highlight(text, grammar) : text), [highlight, grammar, text]);
  return (
    <pre class="code" tabIndex={0} aria-label={label}>
      <code ref={codeRef}>{shown}</code>
    </pre>
  );
}
