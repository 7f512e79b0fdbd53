import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ignoreMatcher, missingPaths, PACKAGE_FILES, quotedPaths, repoTree, treeOf } from './doc-paths.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The documents whose paths must exist: README.md and docs/*.md. docs/benchmarks-history.md is left out on
 * purpose: it keeps past benchmark runs as they were written, naming files as they were then.
 */
const HISTORY = new Set(['docs/benchmarks-history.md']);
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`)
    .filter((doc) => !HISTORY.has(doc)),
];

describe('repository paths quoted in the docs', () => {
  it('all exist (README.md and docs/*.md)', () => {
    const tree = repoTree(ROOT);
    const quoted = DOCS.flatMap((doc) => quotedPaths(doc, readFileSync(join(ROOT, doc), 'utf8'), tree.topLevel));
    // Enough to show the extractor read the documents at all.
    expect(quoted.length).toBeGreaterThan(200);
    expect(missingPaths(quoted, tree)).toEqual([]);
  });

  it('the package files the docs name are where the check looks for them', () => {
    const tree = repoTree(ROOT);
    for (const path of Object.values(PACKAGE_FILES)) expect(tree.packageFileExists(path), path).toBe(true);
  });
});

describe('the doc path extractor', () => {
  const tree = treeOf(
    [
      'src/boot/config.ts',
      'src/adapters/http/routes/tus.ts',
      'src/adapters/http/web/send-page.ts',
      'src/application/judge-guess.ts',
      'docs/API.md',
      'docs/SECURITY.md',
      'docs/shots/a.png',
      'package.json',
    ],
    ignoreMatcher('node_modules\nweb/dist/\n*.log\nbench/results.json\n'),
    (path) => path === 'pdfjs-dist/build/pdf.worker.min.mjs',
  );
  const check = (doc: string, text: string) => missingPaths(quotedPaths(doc, text, tree.topLevel), tree);

  const SAMPLE = [
    '# Sample',
    '',
    'Configuration is read in `src/config.ts` and `src/boot/config.ts`; the routes (`routes/tus.ts`,',
    '`routes/gone.ts`) and `web/send-page.ts` answer, guesses are judged in `guarded-attempt.ts` and',
    '`judge-guess.ts`, see [the API](docs/API.md), [missing](docs/NOPE.md), ![shot](docs/shots/a.png) and',
    '[a section](#sample) or [elsewhere](https://example.com/src/x.ts).',
    '',
    '```sh',
    'node --import tsx src/not-checked.ts',
    '```',
    '',
    'Not paths: `/api/file/{id}`, `text/plain`, `blobs/<2 hex>/<32 hex>`, `assets/pdf-engine-*.js`, `a.txt`,',
    '`MONGODB_URI=mongodb://127.0.0.1:27017/coffer`, `.js`. Built or third-party: `web/dist/dash.html`,',
    '`bench/results.json`, `pdf.worker.min.mjs`, `pdf.sandbox.mjs`. Folders: `src/boot/` and `src/nothing/`;',
    'at the top: `package.json`, `tsconfig.json`, `./package.json`. A span across lines: `node',
    'src/wrapped.ts`.',
  ].join('\n');

  it('lists every quoted path the tree lacks, with its line and kind, and nothing else', () => {
    expect(check('README.md', SAMPLE)).toEqual([
      'README.md:3: src/config.ts (rooted)',
      'README.md:4: routes/gone.ts (relative)',
      'README.md:4: guarded-attempt.ts (file name)',
      'README.md:14: pdf.sandbox.mjs (file name)',
      'README.md:14: src/nothing/ (rooted)',
      'README.md:15: tsconfig.json (file name)',
      'README.md:15: src/wrapped.ts (rooted)',
      'README.md:5: docs/NOPE.md (link)',
    ]);
  });

  it('resolves link targets from the document’s folder', () => {
    expect(check('docs/ARCHITECTURE.md', 'See [the API](API.md) and [security](./SECURITY.md#faults).')).toEqual([]);
    expect(check('docs/ARCHITECTURE.md', 'See [the API](docs/API.md).')).toEqual([
      'docs/ARCHITECTURE.md:1: docs/docs/API.md (link)',
    ]);
  });

  it('finds a relative path only as the end of a real one, segment by segment', () => {
    expect(check('README.md', '`http/routes/tus.ts` `outes/tus.ts` `web/send-page.ts`')).toEqual([
      'README.md:1: outes/tus.ts (relative)',
    ]);
  });

  it('reads .gitignore as git does for plain patterns', () => {
    const ignored = ignoreMatcher('node_modules\ndist/\n/data/\nbench/results.json\n*.log\n');
    expect(ignored('node_modules/x/y.js')).toBe(true);
    expect(ignored('web/dist/dash.html')).toBe(true);
    expect(ignored('data/blobs')).toBe(true);
    expect(ignored('bench/results.json')).toBe(true);
    expect(ignored('bench/run.ts')).toBe(false);
    expect(ignored('src/data/x.ts')).toBe(false);
  });
});
