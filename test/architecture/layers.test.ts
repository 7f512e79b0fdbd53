import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = join(ROOT, 'src');
const WEB_SRC = join(ROOT, 'web/src');

interface SourceFile {
  /** Relative to the project root, with forward slashes: `src/domain/user.ts`. */
  path: string;
  text: string;
}

// `import x from 'm'`, `import type {…} from 'm'`, `export * from 'm'`, `export {…} from 'm'` (also across lines),
// side-effect `import 'm'`, and dynamic `import('m')`.
const SPECIFIERS = [
  /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
  /\bimport\s*['"]([^'"]+)['"]/g,
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
];

function specifiersOf(text: string): string[] {
  const found = new Set<string>();
  for (const pattern of SPECIFIERS) for (const match of text.matchAll(pattern)) found.add(match[1]!);
  return [...found];
}

/** Where an import lands: a path under the project root for relative specifiers, else the bare specifier. */
function target(file: string, specifier: string): { local: string } | { external: string } {
  if (!specifier.startsWith('.')) return { external: specifier };
  const abs = resolve(ROOT, dirname(file), specifier);
  return { local: relative(ROOT, abs).split(sep).join('/') };
}

const within = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`);
const adapterOf = (path: string) => /^src\/adapters\/([^/]+)\//.exec(path)?.[1];
/** The thin entry points: with src/boot, the only files that may know the adapters. */
const ENTRY_POINTS = ['src/main.ts', 'src/embed.ts', 'src/reconcile-cli.ts'];
const mayWire = (path: string) => within(path, 'src/boot') || ENTRY_POINTS.includes(path);

/** One line per import that breaks the layer rules: `<file>: imports '<specifier>' (<why>)`. */
function violations(files: SourceFile[]): string[] {
  const out: string[] = [];
  for (const file of files) {
    for (const specifier of specifiersOf(file.text)) {
      const to = target(file.path, specifier);
      const report = (why: string) => out.push(`${file.path}: imports '${specifier}' (${why})`);
      if (within(file.path, 'src/domain')) {
        if (!('local' in to) || !within(to.local, 'src/domain')) report('the domain imports nothing outside itself');
      } else if (within(file.path, 'src/application')) {
        if (!('local' in to) || !(within(to.local, 'src/domain') || within(to.local, 'src/application'))) {
          report('the application imports only the domain and itself');
        }
      } else if ('local' in to) {
        const from = adapterOf(file.path);
        const into = adapterOf(to.local);
        if (from !== undefined && into !== undefined && from !== into) report('adapters never import each other');
        if (from === undefined && into !== undefined && !mayWire(file.path)) {
          report('only src/boot and the entry points wire adapters');
        }
        if (from !== undefined && within(to.local, 'src/boot')) report('adapters never import the composition root');
      }
      if (within(file.path, 'web/src') && 'local' in to && within(to.local, 'src')) {
        report('the web front end imports nothing from src: it uses the generated OpenAPI types');
      }
    }
  }
  return out;
}

/**
 * The file an import names, among `known` paths: TypeScript's own resolution of our relative specifiers (`./x.js`
 * is `x.ts` or `x.tsx`; no extension, also `x/index.ts`). Undefined for bare specifiers and for what is no source
 * file of ours (a stylesheet, an image).
 */
function resolveLocal(file: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  const to = target(file, specifier);
  if (!('local' in to)) return undefined;
  const base = to.local.replace(/\.(js|jsx|ts|tsx)$/, '');
  const candidates = [to.local, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`];
  return candidates.find((path) => known.has(path));
}

/** Who imports whom (type-only imports too: a circle of types is still a circle a reader has to walk). */
function importGraph(files: SourceFile[]): Map<string, string[]> {
  const known = new Set(files.map((f) => f.path));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const edges = specifiersOf(file.text).map((s) => resolveLocal(file.path, s, known));
    graph.set(file.path, [...new Set(edges.filter((e): e is string => e !== undefined))].sort());
  }
  return graph;
}

/**
 * Every import circle: one line per strongly connected group of files (Tarjan), naming its size and one shortest
 * circle through it, `a → b → c → a`. A file that imports itself is a circle of one.
 */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!graph.has(to)) continue;
      if (!index.has(to)) {
        connect(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1 || (graph.get(node) ?? []).includes(node)) groups.push(group.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) connect(node);
  return groups
    .sort((a, b) => a[0]!.localeCompare(b[0]!))
    .map((group) => `${group.length} file(s): ${shortestCircle(graph, group).join(' → ')}`);
}

/** A shortest way from the group's first file back to itself, staying inside the group (breadth first). */
function shortestCircle(graph: ReadonlyMap<string, readonly string[]>, group: string[]): string[] {
  const start = group[0]!;
  const inGroup = new Set(group);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    for (const to of graph.get(node) ?? []) {
      if (!inGroup.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = cameFrom.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

function sourcesUnder(dir: string): SourceFile[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') || name.endsWith('.tsx'))
    .map((name) => {
      const abs = join(dir, name);
      return { path: relative(ROOT, abs).split(sep).join('/'), text: readFileSync(abs, 'utf8') };
    });
}

describe('layer rules', () => {
  it('hold for every file under src and web/src', () => {
    const files = [...sourcesUnder(SRC), ...sourcesUnder(WEB_SRC)];
    expect(files.some((f) => f.path.startsWith('src/domain/'))).toBe(true);
    expect(files.some((f) => f.path.startsWith('src/application/'))).toBe(true);
    expect(files.some((f) => f.path.startsWith('web/src/') && f.path.endsWith('.tsx'))).toBe(true);
    const found = violations(files);
    expect(found, `Layer violations:\n${found.join('\n')}`).toEqual([]);
  });

  it('are really checked: a synthetic offender is reported, a clean file is not', () => {
    const file = (path: string, ...lines: string[]): SourceFile => ({ path, text: lines.join('\n') });
    const files: SourceFile[] = [
      file('src/domain/bad.ts', "import { readFile } from 'node:fs';", "import { x } from '../application/y.js';"),
      file('src/domain/multi.ts', 'import {', '  a,', "} from 'zod';", "export * from '../adapters/http/app.js';"),
      file('src/domain/side.ts', "import 'reflect-metadata';", "const m = await import('node:path');"),
      file('src/application/bad.ts', "import type { Context } from 'koa';", "import { c } from '../config.js';"),
      file('src/adapters/mongodb/repo.ts', "import { MemoryUserRepository } from '../memory/users.js';"),
      file('src/adapters/http/deep.ts', "export { x } from '../../adapters/argon2/argon2-hasher.js';"),
      file(
        'src/application/good.ts',
        "import type { User } from '../domain/index.js';",
        "import { owned } from './usage-limits.js';",
        "export const s = 'from x';",
      ),
      file(
        'src/adapters/memory/good.ts',
        "import { x } from './other.js';",
        "import { y } from '../../domain/user.js';",
        "import { z } from 'inversify';",
      ),
      file('src/boot/composition.ts', "import { a } from '../adapters/http/app.js';", "import { b } from '../adapters/x/y';"),
      file('src/main.ts', "import { c } from './adapters/http/http-server.js';", "import { d } from './boot/server.js';"),
      file('src/tools/loose.ts', "import { e } from '../adapters/memory/index.js';"),
      file('src/adapters/http/wired.ts', "import { f } from '../../boot/config.js';"),
      file('web/src/share/leak.tsx', "import type { FileView } from '../../../src/application/views.js';"),
      file(
        'web/src/good.tsx',
        "import type { paths } from './openapi-schema.gen.js';",
        "import { h } from 'preact';",
        "import './styles.css';",
      ),
    ];
    expect(violations(files)).toEqual([
      "src/domain/bad.ts: imports 'node:fs' (the domain imports nothing outside itself)",
      "src/domain/bad.ts: imports '../application/y.js' (the domain imports nothing outside itself)",
      "src/domain/multi.ts: imports 'zod' (the domain imports nothing outside itself)",
      "src/domain/multi.ts: imports '../adapters/http/app.js' (the domain imports nothing outside itself)",
      "src/domain/side.ts: imports 'reflect-metadata' (the domain imports nothing outside itself)",
      "src/domain/side.ts: imports 'node:path' (the domain imports nothing outside itself)",
      "src/application/bad.ts: imports 'koa' (the application imports only the domain and itself)",
      "src/application/bad.ts: imports '../config.js' (the application imports only the domain and itself)",
      "src/adapters/mongodb/repo.ts: imports '../memory/users.js' (adapters never import each other)",
      "src/adapters/http/deep.ts: imports '../../adapters/argon2/argon2-hasher.js' (adapters never import each other)",
      "src/tools/loose.ts: imports '../adapters/memory/index.js' (only src/boot and the entry points wire adapters)",
      "src/adapters/http/wired.ts: imports '../../boot/config.js' (adapters never import the composition root)",
      "web/src/share/leak.tsx: imports '../../../src/application/views.js' (the web front end imports nothing from src: it uses the generated OpenAPI types)",
    ]);
  });
});

describe('import circles', () => {
  it('there are none among the files under src and web/src', () => {
    const graph = importGraph([...sourcesUnder(SRC), ...sourcesUnder(WEB_SRC)]);
    // The graph is really read: the composition root reaches the HTTP app, the share page its API module.
    expect(graph.get('src/boot/composition.ts')).toContain('src/adapters/http/http-app.ts');
    expect([...graph.values()].some((edges) => edges.some((e) => e.endsWith('.tsx')))).toBe(true);
    const found = importCycles(graph);
    expect(found, `Import circles:\n${found.join('\n')}`).toEqual([]);
  });

  it('are really found: synthetic circles are reported, a diamond is not', () => {
    const file = (path: string, ...imports: string[]): SourceFile => ({
      path,
      text: imports.map((s) => `import type { x } from '${s}';`).join('\n'),
    });
    const graph = importGraph([
      // a circle of three across folders, written with .js specifiers; options.ts hangs off it
      file('src/adapters/http/paging.ts', './http-app.js', './options.js'),
      file('src/adapters/http/http-app.ts', './routes/index.js'),
      file('src/adapters/http/routes/index.ts', '../paging.js'),
      file('src/adapters/http/options.ts'),
      // two files that import each other, one a .tsx named without an extension
      file('web/src/a.ts', './b'),
      file('web/src/b.tsx', './a.js', './styles.css', 'preact'),
      // a file that imports itself
      file('src/self.ts', './self.js'),
      // a diamond: two ways to one file, no circle
      file('src/top.ts', './left.js', './right.js'),
      file('src/left.ts', './bottom.js'),
      file('src/right.ts', './bottom.js'),
      file('src/bottom.ts', 'zod'),
    ]);
    expect(importCycles(graph)).toEqual([
      '3 file(s): src/adapters/http/http-app.ts → src/adapters/http/routes/index.ts → src/adapters/http/paging.ts → src/adapters/http/http-app.ts',
      '1 file(s): src/self.ts → src/self.ts',
      '2 file(s): web/src/a.ts → web/src/b.tsx → web/src/a.ts',
    ]);
  });
});
