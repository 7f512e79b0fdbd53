import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The reference page: swagger-ui-dist, served from node_modules (never a CDN), started by a script file of ours
 * rather than an inline one, so the page's CSP allows scripts and styles from 'self' only (Swagger UI sets styles
 * through the DOM, which CSP permits; the browser test expands operations and sees no violation).
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Coffer API reference</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/init.js"></script>
</body>
</html>
`;

// The document sits beside the page: /api/docs → /api/openapi.json, whatever prefix PUBLIC_URL puts before /api.
const INIT = `window.ui = SwaggerUIBundle({ url: 'openapi.json', dom_id: '#swagger-ui', deepLinking: true });\n`;

export interface DocsAsset {
  type: string;
  body: Buffer;
}

/** The page's scripts and styles, read once. */
export function loadDocsAssets(): Map<string, DocsAsset> {
  const dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const read = (name: string) => readFileSync(join(dir, name));
  return new Map([
    ['swagger-ui.css', { type: 'text/css; charset=utf-8', body: read('swagger-ui.css') }],
    ['swagger-ui-bundle.js', { type: 'text/javascript; charset=utf-8', body: read('swagger-ui-bundle.js') }],
    ['init.js', { type: 'text/javascript; charset=utf-8', body: Buffer.from(INIT) }],
  ]);
}
