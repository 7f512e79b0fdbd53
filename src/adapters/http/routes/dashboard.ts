import { DomainError } from '../../../domain/index.js';
import { sendWebFile } from '../responses/pages/send-web-file.js';
import { PAGE_HEADERS } from '../responses/pages/web-headers.js';
import { DASHBOARD_PATHS } from './dashboard-paths.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteTable } from './route-table.js';

/**
 * The dashboard: one shell (web/dist/dash.html) for each of its paths, the page itself reads the path. Served with
 * the front end only (webDir); without a build it answers unavailable.
 */
export function dashboardRoutes(routes: RouteTable, { options, web }: RouteDeps): void {
  if (!options.webDir) return;
  for (const path of DASHBOARD_PATHS) {
    routes.add(
      {
        method: 'get',
        path: path.replace(/:(\w+)/g, '{$1}'),
        tag: 'web',
        summary: 'A page of the dashboard (the front end\'s shell)',
        access: 'public',
        ok: [{ status: 200, description: 'HTML', body: 'html' }, { status: 304, description: 'Not modified' }],
        errors: [503],
      },
      (ctx) => {
        if (!web?.dashShell) throw new DomainError('unavailable', 'The web front end is not built: run npm run build:web');
        sendWebFile(ctx, web.dashShell, PAGE_HEADERS);
      },
    );
  }
}
