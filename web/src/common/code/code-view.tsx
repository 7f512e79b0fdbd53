import type { ComponentChildren } from 'preact';
import type { Token, TokenStream } from 'prismjs';
import { Prism } from './languages.js';

// Past this, tokenizing would stall the page; the text is still shown, only uncoloured.
const HIGHLIGHT_MAX = 256 * 1024;

/**
 * Prism's token tree as Preact nodes: every piece of the text becomes a text node inside a span that names its
 * kind. No HTML string is ever built from the text, so markup in it stays characters on the screen.
 */
function nodes(stream: TokenStream): ComponentChildren {
  if (typeof stream === 'string') return stream;
  if (!Array.isArray(stream)) return tokenNode(stream, 0);
  return stream.map((part, i) => (typeof part === 'string' ? part : tokenNode(part, i)));
}

function tokenNode(token: Token, key: number) {
  const aliases = Array.isArray(token.alias) ? token.alias : token.alias ? [token.alias] : [];
  const kinds = [token.type, ...aliases].map((kind) => `tk-${kind.replace(/[^a-z-]/gi, '')}`).join(' ');
  return (
    <span key={key} class={kinds}>
      {nodes(token.content)}
    </span>
  );
}

interface Props {
  text: string;
  /** A grammar name (languages.ts), or null for plain text. */
  language: string | null;
  label: string;
  codeRef?: preact.Ref<HTMLElement>;
}

/** Text shown as code, coloured by its language when one is known and the text is not huge. */
export function CodeView({ text, language, label, codeRef }: Props) {
  const grammar = language && text.length <= HIGHLIGHT_MAX ? Prism.languages[language] : undefined;
  return (
    <pre class="code" tabIndex={0} aria-label={label}>
      <code ref={codeRef}>{grammar ? nodes(Prism.tokenize(text, grammar)) : text}</code>
    </pre>
  );
}
