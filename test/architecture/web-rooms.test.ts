import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const WEB_SRC = 'web/src';

/**
 * The front end's rooms: each page is a Vite entry of its own (`share/main.tsx`, `dash/main.tsx`) and what both use
 * lives in `common/`. A page never reaches into the other (else one page's first load would carry the other's
 * code), and `common/` belongs to neither.
 */
const ROOMS = ['share', 'dash', 'request', 'common'] as const;
type Room = (typeof ROOMS)[number];
const MAY_IMPORT: Record<Room, readonly Room[]> = {
  share: ['share', 'common'],
  dash: ['dash', 'common'],
  request: ['request', 'common'],
  common: ['common'],
};

interface WebFile {
  /** Relative to the project root, with forward slashes: `web/src/dash/app.tsx`. */
  path: string;
  text: string;
}

// Static imports and re-exports (also across lines), side-effect imports (style sheets included), dynamic import().
const SPECIFIERS = [
  /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
  /\bimport\s*['"]([^'"]+)['"]/g,
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
];

const roomOf = (path: string): Room | null =>
  ROOMS.find((room) => path.startsWith(`${WEB_SRC}/${room}/`)) ?? null;

/** One line per file outside the rooms, and per import that crosses from one room into another it may not use. */
function violations(files: WebFile[]): string[] {
  const out: string[] = [];
  for (const file of files) {
    const from = roomOf(file.path);
    if (from === null) {
      out.push(`${file.path}: outside share/, dash/, request/ and common/`);
      continue;
    }
    const specifiers = new Set(SPECIFIERS.flatMap((pattern) => [...file.text.matchAll(pattern)].map((m) => m[1]!)));
    for (const specifier of specifiers) {
      if (!specifier.startsWith('.')) continue;
      const into = relative(ROOT, resolve(ROOT, dirname(file.path), specifier)).split(sep).join('/');
      if (!into.startsWith(`${WEB_SRC}/`)) continue;
      const room = roomOf(into);
      if (room === null || !MAY_IMPORT[from].includes(room)) {
        out.push(`${file.path}: imports '${specifier}' (${from}/ uses only ${MAY_IMPORT[from].join('/ and ')}/)`);
      }
    }
  }
  return out;
}

function webSources(): WebFile[] {
  const dir = join(ROOT, WEB_SRC);
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const abs = join(entry.parentPath, entry.name);
      const path = relative(ROOT, abs).split(sep).join('/');
      return { path, text: /\.(tsx?|css)$/.test(entry.name) ? readFileSync(abs, 'utf8') : '' };
    });
}

describe('the web rooms', () => {
  it('hold every file under web/src: the share page, the dashboard and what they share, neither using the other', () => {
    const files = webSources();
    for (const room of ROOMS) expect(files.some((f) => roomOf(f.path) === room), room).toBe(true);
    expect(files.map((f) => f.path)).toEqual(
      expect.arrayContaining(['web/src/share/main.tsx', 'web/src/dash/main.tsx', 'web/src/request/main.tsx']),
    );
    const found = violations(files);
    expect(found, `Out of place:\n${found.join('\n')}`).toEqual([]);
  });

  it('are really checked: synthetic offenders are reported, clean files are not', () => {
    const file = (path: string, ...lines: string[]): WebFile => ({ path, text: lines.join('\n') });
    expect(
      violations([
        file('web/src/loose.ts', "import { x } from './common/format.js';"),
        file('web/src/share/bad.tsx', "import { api } from '../dash/api.js';", "import '../dash/dash.css';"),
        file('web/src/dash/bad.tsx', 'import {', '  A,', "} from '../share/app.js';", "const m = await import('../share/x.js');"),
        file('web/src/common/bad.ts', "export { y } from '../dash/routes.js';", "import { z } from '../loose.js';"),
        file('web/src/request/bad.tsx', "import { FileList } from '../share/file-list.js';", "import { api } from '../dash/api.js';"),
        file(
          'web/src/dash/files/good.tsx',
          "import { formatSize } from '../../common/format.js';",
          "import { api } from '../api.js';",
          "import { render } from 'preact';",
          "import type { X } from '../../../../src/application/views.js';",
        ),
        file('web/src/common/good.ts', "import { a } from './code/code-view.js';", "const b = await import('./pdf/x.js');"),
      ]),
    ).toEqual([
      'web/src/loose.ts: outside share/, dash/, request/ and common/',
      "web/src/share/bad.tsx: imports '../dash/api.js' (share/ uses only share/ and common/)",
      "web/src/share/bad.tsx: imports '../dash/dash.css' (share/ uses only share/ and common/)",
      "web/src/dash/bad.tsx: imports '../share/app.js' (dash/ uses only dash/ and common/)",
      "web/src/dash/bad.tsx: imports '../share/x.js' (dash/ uses only dash/ and common/)",
      "web/src/common/bad.ts: imports '../dash/routes.js' (common/ uses only common/)",
      "web/src/common/bad.ts: imports '../loose.js' (common/ uses only common/)",
      "web/src/request/bad.tsx: imports '../share/file-list.js' (request/ uses only request/ and common/)",
      "web/src/request/bad.tsx: imports '../dash/api.js' (request/ uses only request/ and common/)",
    ]);
  });
});
