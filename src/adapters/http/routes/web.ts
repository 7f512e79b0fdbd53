import { DomainError } from '../../../domain/index.js';
import { sendWebFile } from '../responses/pages/send-web-file.js';
import { loadWebAssets } from '../responses/pages/web-assets.js';
import { ASSET_HEADERS, IMMUTABLE, PAGE_HEADERS } from '../responses/pages/web-headers.js';
import type { AppRouter, RouteDeps } from './route-deps.js';
import { DASHBOARD_PATHS } from './dashboard-paths.js';
import { sharePageRoutes } from './share-page.js';

/**
 * The browser front end (web/dist, built by Vite): its hashed assets, and the pages rendered from its HTML shell
 * (share-page.ts). Without a build the API still serves share content; the pages answer unavailable.
 */
export function webRoutes(router: AppRouter, deps: RouteDeps): void {
  const { options } = deps;
  if (!options.webDir) return;
  const web = loadWebAssets(options.webDir);
  if (!web) options.logger.warn({ dir: options.webDir }, 'the web front end is not built: run npm run build:web');

  router.get('/assets/:name', (ctx) => {
    const file = web?.assets.get(ctx.params.name ?? '');
    if (!file) return;
    const cache = file.immutable ? IMMUTABLE : 'no-cache';
    sendWebFile(ctx, file, { ...ASSET_HEADERS, 'Cache-Control': cache });
  });

  sharePageRoutes(router, deps, () => web);

  router.get(DASHBOARD_PATHS, (ctx) => {
    if (!web?.dashShell) throw new DomainError('unavailable', 'The web front end is not built: run npm run build:web');
    sendWebFile(ctx, web.dashShell, PAGE_HEADERS);
  });
}
