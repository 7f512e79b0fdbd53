import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Static, hashed assets only: the HTTP adapter serves web/dist and nothing else. Nothing is inlined as a data: URL
 * (the CSP allows images from 'self' only), and there is one entry chunk, so no module-preload polyfill is needed.
 */
export default defineConfig({
  root,
  base: '/',
  publicDir: false,
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: false,
  },
});
