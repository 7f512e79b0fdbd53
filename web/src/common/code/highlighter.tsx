import type { ComponentChildren } from 'preact';
import type { Token, TokenStream } from 'prismjs';
import { Prism } from './grammars.js';

/*
 * Prism and its grammars (grammars.ts): a chunk of its own, imported by code-view.tsx only when some text is to be
 * coloured, so neither page's first load carries it.
 */

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

/** The text as coloured nodes, by a grammar name of languages.ts; the text alone when Prism has no such grammar. */
export function highlight(text: string, language: string): ComponentChildren {
  const grammar = Object.hasOwn(Prism.languages, language) ? Prism.languages[language] : undefined;
  return grammar && typeof grammar === 'object' ? nodes(Prism.tokenize(text, grammar)) : text;
}
