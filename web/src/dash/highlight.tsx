/**
 * A small highlighter: comments, strings, numbers and keywords as spans of text. Never HTML: every token is a text
 * node, so a paste can hold anything. Good enough to read code at a glance without shipping a grammar library.
 */
const KEYWORDS = new Set(
  (
    'if else for while do return function const let var class new import export from def elif in is not and or ' +
    'true false null None True False try catch except finally throw raise async await fn pub struct enum impl ' +
    'match use type interface public private static void int string bool package func go select case switch break'
  ).split(' '),
);
const TOKEN =
  /(\/\/[^\n]*|#[^\n]*|\/\*[\s\S]*?\*\/)|("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`)|(\b\d[\d_.]*\b)|([A-Za-z_]\w*)/g;

const COMMENTED = new Set(['python', 'shell', 'bash', 'yaml', 'ruby', 'toml']);

export function Highlighted({ content, type }: { content: string; type: string }) {
  if (type === 'text' || type === 'markdown') return <code>{content}</code>;
  const parts: (string | preact.JSX.Element)[] = [];
  let last = 0;
  for (const match of content.matchAll(TOKEN)) {
    const [text, comment, string, number, word] = match;
    const at = match.index;
    if (comment?.startsWith('#') && !COMMENTED.has(type)) continue;
    const kind = comment ? 'tok-comment' : string ? 'tok-string' : number ? 'tok-number' : word && KEYWORDS.has(word) ? 'tok-keyword' : null;
    if (!kind) continue;
    if (at > last) parts.push(content.slice(last, at));
    parts.push(<span class={kind}>{text}</span>);
    last = at + text.length;
  }
  parts.push(content.slice(last));
  return <code>{parts}</code>;
}
