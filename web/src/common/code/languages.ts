import { Prism } from './prism-setup.js';
import 'prismjs/components/prism-typescript.js';
import 'prismjs/components/prism-json.js';
import 'prismjs/components/prism-python.js';
import 'prismjs/components/prism-bash.js';
import 'prismjs/components/prism-c.js';
import 'prismjs/components/prism-cpp.js';
import 'prismjs/components/prism-java.js';
import 'prismjs/components/prism-go.js';
import 'prismjs/components/prism-rust.js';
import 'prismjs/components/prism-sql.js';
import 'prismjs/components/prism-yaml.js';
import 'prismjs/components/prism-markdown.js';
import 'prismjs/components/prism-diff.js';

export { Prism };

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
  return Object.hasOwn(Prism.languages, name) && typeof Prism.languages[name] === 'object' ? name : null;
}

export function languageOfFile(name: string, mime: string): string | null {
  const dot = name.lastIndexOf('.');
  const byExtension = dot > 0 ? languageOf(name.slice(dot + 1)) : null;
  if (byExtension) return byExtension;
  if (mime === 'application/json') return 'json';
  return null;
}
