import { one } from '../openapi/operation.js';
import { actorOf } from '../session/auth.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteTable } from './route-table.js';

export function usageRoutes(routes: RouteTable, { core, auth }: RouteDeps): void {
  routes.add(
    { method: 'get', path: '/api/usage/stats', tag: 'usage', summary: 'Your usage and limits', access: 'session-or-uploader', ok: one('Usage'), errors: [401] },
    auth.required,
    async (ctx) => {
      ctx.body = await core.getUsage.execute({ actor: actorOf(ctx) });
    },
  );
}
