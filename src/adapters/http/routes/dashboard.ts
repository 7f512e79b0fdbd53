import { DomainError } from '../../../domain/index.js';
import { sendWebFile } from '../responses/pages/send-web-file.js';
import { PAGE_HEADERS } from '../responses/pages/web-headers.js';
import { DASHBOARD_PATHS } from './dashboard-paths.js';
import type { AppRouter, RouteDeps } from './route-deps.js';

/**
 * The dashboard: one shell (web/dist/dash.html) for each of its paths, the page itself reads the path. Served with
 * the front end only (webDir); without a build it answers unavailable.
 */
export function dashboardRoutes(router: AppRouter, { options, web }: RouteDeps): void {
  if (!options.webDir) return;
  router.get(DASHBOARD_PATHS, (ctx) => {
    if (!web?.dashShell) throw new DomainError('unavailable', 'The web front end is not built: run npm run build:web');
    sendWebFile(ctx, web.dashShell, PAGE_HEADERS);
  });
}
