import type { Context } from 'koa';
import { DOCS_CSP, DOCS_HTML, loadDocsAssets } from '../openapi/docs-page.js';
import { buildOpenApiDocument } from '../openapi/document.js';
import type { AppRouter, RouteDeps } from './route-deps.js';

/** The OpenAPI document and its reference page, both built once at start-up. */
export function referenceRoutes(router: AppRouter, { options }: RouteDeps): void {
  const document = Buffer.from(JSON.stringify(buildOpenApiDocument({ web: options.webDir !== undefined })));
  const assets = loadDocsAssets();
  const page = (ctx: Context) => {
    ctx.set('Content-Security-Policy', DOCS_CSP);
    ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cache-Control', 'public, max-age=300');
  };

  router.get('/api/openapi.json', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.type = 'application/json';
    ctx.body = document;
  });

  router.get('/api/docs', (ctx) => {
    page(ctx);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = DOCS_HTML;
  });

  router.get('/api/docs/:name', (ctx) => {
    const asset = assets.get(ctx.params.name ?? '');
    if (!asset) return;
    page(ctx);
    ctx.type = asset.type;
    ctx.body = asset.body;
  });
}
