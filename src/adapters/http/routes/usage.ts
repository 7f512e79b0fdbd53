import { actorOf } from '../session/auth.js';
import type { AppRouter, RouteDeps } from './route-deps.js';

export function usageRoutes(router: AppRouter, { core, auth }: RouteDeps): void {
  router.get('/api/usage/stats', auth.required, async (ctx) => {
    ctx.body = await core.getUsage.execute({ actor: actorOf(ctx) });
  });
}
