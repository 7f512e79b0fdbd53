import { actorOf } from '../auth.js';
import { jsonBody } from '../json-body.js';
import { linkNext, parsePage } from '../paging.js';
import { parse, parseId, tokenCreateBody } from '../validation.js';
import type { AppRouter, RouteDeps } from './route-deps.js';

export function tokenRoutes(router: AppRouter, { core, auth, options }: RouteDeps): void {
  router.post('/api/token', auth.required, jsonBody(), async (ctx) => {
    const { name } = parse(tokenCreateBody, ctx.request.body);
    ctx.body = await core.createApiToken.execute({ actor: actorOf(ctx), name });
    ctx.status = 201;
  });

  router.get('/api/token', auth.required, async (ctx) => {
    const page = parsePage(ctx);
    const { items, nextCursor } = await core.listApiTokens.execute({ actor: actorOf(ctx), ...page });
    linkNext(ctx, options, '/api/token', page, nextCursor);
    ctx.body = items;
  });

  router.delete('/api/token/:id', auth.required, async (ctx) => {
    await core.deleteApiToken.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
    ctx.status = 204;
  });
}
