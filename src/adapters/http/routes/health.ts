import { one } from '../openapi/operation.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteTable } from './route-table.js';

export function healthRoutes(routes: RouteTable, { options }: RouteDeps): void {
  routes.add(
    { method: 'get', path: '/health', tag: 'health', summary: 'Liveness and the persistence in use', access: 'public', ok: one('Health'), errors: [] },
    (ctx) => {
      ctx.body = { status: 'ok', persistence: options.persistence };
    },
  );
}
