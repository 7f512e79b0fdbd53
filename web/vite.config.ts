import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Static, hashed assets only: the HTTP adapter serves web/dist and nothing else. Nothing is inlined as a data: URL
 * (the CSP allows images from 'self' only). Three pages, three entries: the share page (index.html, src/share/main.tsx), a file request's page (request.html, src/request/main.tsx)
 * and the dashboard (dash.html, src/dash/main.tsx), so neither ever loads the other's code; what both use lives in
 * src/common/. Browsers that run module scripts know modulepreload, so no polyfill is needed.
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
    rolldownOptions: {
      input: {
        share: `${root}index.html`,
        dash: `${root}dash.html`,
        request: `${root}request.html`,
        // The share page's service worker (end-to-end encrypted files): a fixed name, as a registration names it.
        'download-worker': `${root}src/share/download-worker.ts`,
      },
      output: {
        entryFileNames: (chunk) =>
          chunk.name === 'download-worker' ? 'assets/download-worker.js' : 'assets/[name]-[hash].js',
      },
    },
  },
});
