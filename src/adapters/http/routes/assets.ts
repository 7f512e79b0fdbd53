import { sendWebFile } from '../responses/pages/send-web-file.js';
import { ASSET_HEADERS, DOWNLOAD_WORKER, DOWNLOAD_WORKER_HEADERS, IMMUTABLE } from '../responses/pages/web-headers.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteTable } from './route-table.js';

/** The built front end's files (web/dist/assets), by name only; served with the front end only (webDir). */
export function assetRoutes(routes: RouteTable, { options, web }: RouteDeps): void {
  if (!options.webDir) return;
  routes.add(
    {
      method: 'get',
      path: '/assets/{name}',
      tag: 'web',
      summary: 'An asset of the web front end',
      access: 'public',
      ok: [{ status: 200, description: 'The asset', body: 'asset' }, { status: 304, description: 'Not modified' }],
      errors: [404],
    },
    (ctx) => {
      const file = web?.assets.get(ctx.params.name ?? '');
      if (!file) return;
      const cache = file.immutable ? IMMUTABLE : 'no-cache';
      const headers = ctx.params.name === DOWNLOAD_WORKER ? DOWNLOAD_WORKER_HEADERS : ASSET_HEADERS;
      sendWebFile(ctx, file, { ...headers, 'Cache-Control': cache });
    },
  );
}
