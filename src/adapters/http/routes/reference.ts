import type { Context } from 'koa';
import { DOCS_CSP, DOCS_HTML, loadDocsAssets } from '../openapi/docs-page.js';
import { openApiDocument } from '../openapi/document.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteTable } from './route-table.js';

/**
 * The OpenAPI document and its reference page. The document describes every route of the table, those registered
 * after this one too: it is assembled once, at its first request, when the table is complete.
 */
export function referenceRoutes(routes: RouteTable, _deps: RouteDeps): void {
  let document: Buffer | undefined;
  const assets = loadDocsAssets();
  const page = (ctx: Context) => {
    ctx.set('Content-Security-Policy', DOCS_CSP);
    ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cache-Control', 'public, max-age=300');
  };

  routes.add(
    { method: 'get', path: '/api/openapi.json', tag: 'reference', summary: 'This document', access: 'public', ok: [{ status: 200, description: 'The OpenAPI 3.1 document' }], errors: [] },
    (ctx) => {
      document ??= Buffer.from(JSON.stringify(openApiDocument(routes.operations)));
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.type = 'application/json';
      ctx.body = document;
    },
  );

  routes.add(
    { method: 'get', path: '/api/docs', tag: 'reference', summary: 'The API reference page', access: 'public', ok: [{ status: 200, description: 'HTML', body: 'html' }], errors: [] },
    (ctx) => {
      page(ctx);
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = DOCS_HTML;
    },
  );

  routes.add(
    { method: 'get', path: '/api/docs/{name}', tag: 'reference', summary: 'A script or style of the reference page', access: 'public', ok: [{ status: 200, description: 'The asset', body: 'asset' }], errors: [404] },
    (ctx) => {
      const asset = assets.get(ctx.params.name ?? '');
      if (!asset) return;
      page(ctx);
      ctx.type = asset.type;
      ctx.body = asset.body;
    },
  );
}
