import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = join(ROOT, 'src');

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
    }
  }
  return out;
}

function sourcesUnder(dir: string): SourceFile[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => {
      const abs = join(dir, name);
      return { path: relative(ROOT, abs).split(sep).join('/'), text: readFileSync(abs, 'utf8') };
    });
}

describe('layer rules', () => {
  it('hold for every file under src', () => {
    const files = sourcesUnder(SRC);
    expect(files.some((f) => f.path.startsWith('src/domain/'))).toBe(true);
    expect(files.some((f) => f.path.startsWith('src/application/'))).toBe(true);
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
    ]);
  });
});
