import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

/**
 * Which repository paths a Markdown document quotes, and which of them the repository lacks.
 *
 * What counts as a quoted path:
 * - Markdown link and image targets, `[text](target)`, resolved from the document's own folder as a browser or
 *   GitHub resolves them (web addresses, `mailto:` and bare `#anchors` are not paths; an `#anchor` after a path is
 *   dropped).
 * - In inline code spans (fenced code blocks are left alone: they hold commands, examples and drawn trees), every
 *   white-space separated word made only of path characters (letters, digits, `_ @ . -` and `/`; a word holding
 *   `<`, `{`, `*`, `:` or `=` is a pattern, an address or an assignment, not a path) that is one of:
 *   1. rooted: its first segment names an entry at the top of the repository (`src/…`, `test/…`, `web/…`,
 *      `docs/…`, `bench/…`, `.ci/…`, `package.json`) or it starts with `./`. Directories count (`src/boot/`).
 *   2. relative: it holds a `/` and ends in a file name with a known extension (`routes/tus.ts`, written beside a
 *      mention of the folder it sits in).
 *   3. a bare file name with a known extension (`guarded-attempt.ts`).
 *
 * When it counts as found:
 * - 1 and 2: some file or folder of the repository is that path, or ends with `/` and that path. So
 *   `routes/tus.ts` is found as `src/adapters/http/routes/tus.ts` (a path written relative to a folder the text
 *   names nearby; a rooted one may be such a path too, as `web/…` inside the HTTP adapter), while `src/config.ts` or
 *   `shares/share-view.ts` is found nowhere.
 * - 3: some file of the repository has that name.
 * - Paths the repository's `.gitignore` names (`web/dist/`, `bench/results.json`, the browser tests' screenshots)
 *   are made by a build or a run and are not checked; the repository's files are listed without them.
 * - A few file names belong to installed packages (pdf.js's worker and scripting bundle): they are looked up in
 *   that package under node_modules instead.
 */

/**
 * Extensions that make a word a file name. `.txt`, `.bin`, `.zip` and `.pdf` are left out: the docs use them for
 * the sample names of uploads (`a.txt`, `bench-upload.bin`), not for repository files.
 */
const FILE_EXTENSIONS = /\.(?:ts|tsx|mts|cts|js|mjs|cjs|json|md|css|html|png|svg|yml|yaml|sh)$/;
const PATH_WORD = /^(?:\.\/)?[\w@.-]+(?:\/[\w@.-]+)*\/?$/;
/** Punctuation that may close or open a word in a code span without being part of the path. */
const EDGE = /^[("'[]+|[)"',;.\]]+$/g;

/** File names of installed packages that the docs quote, and where each is found under node_modules. */
export const PACKAGE_FILES: Readonly<Record<string, string>> = {
  'pdf.worker.min.mjs': 'pdfjs-dist/build/pdf.worker.min.mjs',
  'pdf.sandbox.mjs': 'pdfjs-dist/build/pdf.sandbox.mjs',
};

export interface QuotedPath {
  /** The document, relative to the repository root. */
  doc: string;
  line: number;
  /** As written, after the document's folder is applied to a link target. */
  path: string;
  kind: 'link' | 'rooted' | 'relative' | 'file name';
}

/** The text with every fenced code block blanked out (its lines kept, so line numbers stay right). */
function withoutFences(text: string): string {
  const lines = text.split('\n');
  let fence: string | null = null;
  return lines
    .map((line) => {
      const mark = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === null) {
        if (mark) fence = mark;
        return mark ? '' : line;
      }
      // A fence closes with the same character, at least as many times.
      if (mark && mark[0] === fence[0] && mark.length >= fence.length) fence = null;
      return '';
    })
    .join('\n');
}

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

function linkTarget(doc: string, target: string): string | null {
  const bare = target.trim().replace(/^<|>$/g, '').split(/\s+/)[0] ?? '';
  if (bare === '' || bare.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(bare)) return null;
  const path = decodeURI(bare.split('#')[0]!);
  return posix.normalize(posix.join(posix.dirname(doc), path)).replace(/^\.\//, '');
}

/** Every repository path `doc` (its path from the root) quotes in `text`, with the kind that decides its check. */
export function quotedPaths(doc: string, text: string, topLevel: ReadonlySet<string>): QuotedPath[] {
  const prose = withoutFences(text);
  const found: QuotedPath[] = [];
  // Code spans first, then blank them so a `[x](y)` inside one is not read as a link.
  const spans = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;
  for (const match of prose.matchAll(spans)) {
    const line = lineAt(prose, match.index);
    for (const raw of match[2]!.split(/\s+/)) {
      const word = raw.replace(EDGE, '');
      if (!PATH_WORD.test(word) || word === '.' || word === '..') continue;
      const first = word.replace(/^\.\//, '').split('/')[0]!;
      const lastName = word.replace(/\/$/, '').split('/').at(-1)!;
      const fileName = FILE_EXTENSIONS.test(lastName) && !lastName.startsWith('.');
      if (word.startsWith('./') || topLevel.has(first)) found.push({ doc, line, path: word, kind: 'rooted' });
      else if (word.includes('/') && fileName) found.push({ doc, line, path: word, kind: 'relative' });
      else if (!word.includes('/') && fileName) found.push({ doc, line, path: word, kind: 'file name' });
    }
  }
  const links = prose.replace(spans, (span) => span.replace(/[^\n]/g, ' '));
  for (const match of links.matchAll(/!?\[[^\]]*\]\(([^()\s]*(?:\([^()]*\)[^()\s]*)*)(?:\s+"[^"]*")?\)/g)) {
    const path = linkTarget(doc, match[1]!);
    if (path !== null) found.push({ doc, line: lineAt(links, match.index), path, kind: 'link' });
  }
  return found;
}

/** The repository as the check sees it: its paths (files and folders, from the root, no trailing slash). */
export interface RepoTree {
  topLevel: ReadonlySet<string>;
  paths: ReadonlySet<string>;
  fileNames: ReadonlySet<string>;
  ignored(path: string): boolean;
  packageFileExists(relativeToNodeModules: string): boolean;
}

/**
 * `.gitignore`'s plain patterns (globs such as `*.log` are skipped), read as git reads them: one with a `/` at its
 * start or inside is anchored at the root, one without matches a file or folder name at any depth.
 */
export function ignoreMatcher(gitignore: string): (path: string) => boolean {
  const patterns = gitignore
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#') && !/[*?[!]/.test(line))
    .map((line) => {
      const name = line.replace(/\/$/, '');
      return { anchored: name.includes('/'), name: name.replace(/^\//, '') };
    });
  return (path) => {
    const clean = path.replace(/^\.\//, '').replace(/\/$/, '');
    const segments = clean.split('/');
    return patterns.some(({ anchored, name }) =>
      anchored ? clean === name || clean.startsWith(`${name}/`) : segments.includes(name),
    );
  };
}

/** A tree of the given paths (files; their folders are added), for the check and for its own tests. */
export function treeOf(
  files: readonly string[],
  ignored: (path: string) => boolean = () => false,
  packageFileExists: (path: string) => boolean = () => false,
): RepoTree {
  const paths = new Set<string>();
  const fileNames = new Set<string>();
  for (const file of files) {
    const segments = file.split('/');
    for (let i = 1; i <= segments.length; i++) paths.add(segments.slice(0, i).join('/'));
    fileNames.add(segments.at(-1)!);
  }
  const topLevel = new Set([...paths].filter((path) => !path.includes('/')));
  return { topLevel, paths, fileNames, ignored, packageFileExists };
}

/** The files of the repository at `root`, leaving out `.git` and whatever its `.gitignore` names. */
export function repoTree(root: string): RepoTree {
  const gitignore = join(root, '.gitignore');
  const ignored = ignoreMatcher(existsSync(gitignore) ? readFileSync(gitignore, 'utf8') : '');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.name === '.git' || ignored(path)) continue;
      if (entry.isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk('');
  return treeOf(files, ignored, (path) => existsSync(join(root, 'node_modules', path)));
}

function found(quoted: QuotedPath, tree: RepoTree): boolean {
  const path = quoted.path.replace(/^\.\//, '').replace(/\/$/, '');
  if (path === '' || tree.ignored(path)) return true;
  if (quoted.kind === 'link') return tree.paths.has(path);
  if (quoted.kind === 'file name') {
    const packaged = PACKAGE_FILES[path];
    return packaged !== undefined ? tree.packageFileExists(packaged) : tree.fileNames.has(path);
  }
  if (tree.paths.has(path)) return true;
  for (const known of tree.paths) if (known.endsWith(`/${path}`)) return true;
  return false;
}

/** One line per quoted path the repository lacks: `<doc>:<line>: <path> (<kind>)`. */
export function missingPaths(quoted: readonly QuotedPath[], tree: RepoTree): string[] {
  return quoted.filter((q) => !found(q, tree)).map((q) => `${q.doc}:${q.line}: ${q.path} (${q.kind})`);
}
