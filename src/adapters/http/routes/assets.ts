import { sendWebFile } from '../responses/pages/send-web-file.js';
import { ASSET_HEADERS, IMMUTABLE } from '../responses/pages/web-headers.js';
import type { AppRouter, RouteDeps } from './route-deps.js';

/** The built front end's files (web/dist/assets), by name only; served with the front end only (webDir). */
export function assetRoutes(router: AppRouter, { options, web }: RouteDeps): void {
  if (!options.webDir) return;
  router.get('/assets/:name', (ctx) => {
    const file = web?.assets.get(ctx.params.name ?? '');
    if (!file) return;
    const cache = file.immutable ? IMMUTABLE : 'no-cache';
    sendWebFile(ctx, file, { ...ASSET_HEADERS, 'Cache-Control': cache });
  });
}
