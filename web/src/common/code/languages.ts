/**
 * Every name a grammar of highlighter.tsx answers to in Prism.languages: Prism's own (plain text, markup, CSS,
 * C-like, JavaScript) and those of the components it imports, aliases included. Kept here, without Prism, so that
 * choosing how to show a file costs nothing and Prism loads only when something is to be coloured;
 * test/web/highlighter.test.ts keeps this list equal to what Prism knows once the highlighter is loaded.
 */
export const GRAMMARS: ReadonlySet<string> = new Set([
  'plain', 'plaintext', 'text', 'txt',
  'markup', 'html', 'mathml', 'svg', 'xml', 'ssml', 'atom', 'rss',
  'css', 'clike', 'javascript', 'js', 'typescript', 'ts', 'json', 'webmanifest', 'python', 'py',
  'bash', 'sh', 'shell', 'c', 'cpp', 'java', 'go', 'rust', 'sql', 'yaml', 'yml', 'markdown', 'md', 'diff',
]);

/** The grammars that colour nothing: text in them needs no highlighter. */
export const PLAIN_TEXT: ReadonlySet<string> = new Set(['plain', 'plaintext', 'text', 'txt']);

/** What people call a language (a paste's type, a file's extension) → the grammar that reads it. */
const ALIASES: Record<string, string> = {
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  html: 'markup',
  htm: 'markup',
  xml: 'markup',
  svg: 'markup',
  py: 'python',
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  h: 'c',
  hpp: 'cpp',
  cc: 'cpp',
  'c++': 'cpp',
  rs: 'rust',
  yml: 'yaml',
  md: 'markdown',
  patch: 'diff',
};

/** The grammar's name for a paste type or a file name's extension; null when none fits (plain text). */
export function languageOf(label: string): string | null {
  const key = label.toLowerCase();
  const name = ALIASES[key] ?? key;
  return GRAMMARS.has(name) ? name : null;
}

export function languageOfFile(name: string, mime: string): string | null {
  const dot = name.lastIndexOf('.');
  const byExtension = dot > 0 ? languageOf(name.slice(dot + 1)) : null;
  if (byExtension) return byExtension;
  if (mime === 'application/json') return 'json';
  return null;
}
