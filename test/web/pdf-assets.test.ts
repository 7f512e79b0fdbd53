import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WEB_DIST } from '../../web/ensure-built.js';

const PDFJS = new URL('../../node_modules/pdfjs-dist/', import.meta.url);

/**
 * pdf-engine.ts finds pdf.js's standard fonts and CMaps with import.meta.glob, by a path relative to itself: a glob
 * that matches nothing builds without a word, and PDFs then fall back to the system's fonts. The build (made by the
 * test run's globalSetup) must hold every one of them, named in the engine's chunk.
 */
describe('the built PDF engine', () => {
  const assets = readdirSync(join(WEB_DIST, 'assets'));
  const engine = assets.filter((name) => /^pdf-engine-.*\.js$/.test(name));

  it.each([
    ['standard_fonts', /\.(pfb|ttf)$/],
    ['cmaps', /\.bcmap$/],
  ])('carries every file of pdfjs-dist/%s as a hashed asset its chunk names', (dir, kind) => {
    expect(engine).toHaveLength(1);
    const chunk = readFileSync(join(WEB_DIST, 'assets', engine[0]!), 'utf8');
    const files = readdirSync(new URL(`${dir}/`, PDFJS)).filter((name) => kind.test(name));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const stem = file.replace(kind, '');
      const built = assets.find((name) => name.startsWith(`${stem}-`) && kind.test(name) && name.length === file.length + 9);
      expect(built, file).toBeDefined();
      expect(chunk, file).toContain(`/assets/${built}`);
    }
  });
});
