import { actorOf } from '../session/auth.js';
import { jsonBody } from '../json-body.js';
import { parse, searchBody } from '../validation.js';
import type { AppRouter, RouteDeps } from './route-deps.js';

export function searchRoutes(router: AppRouter, { core, auth }: RouteDeps): void {
  router.post('/api/search', auth.required, jsonBody(), async (ctx) => {
    const input = parse(searchBody, ctx.request.body);
    ctx.body = await core.search.execute({ actor: actorOf(ctx), ...input });
  });
}
