import { one, owned } from '../openapi/operation.js';
import { actorOf } from '../session/auth.js';
import { jsonBody } from '../json-body.js';
import { parse, searchBody } from '../validation.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteTable } from './route-table.js';

export function searchRoutes(routes: RouteTable, { core, auth }: RouteDeps): void {
  routes.add(
    { method: 'post', path: '/api/search', tag: 'search', summary: 'Search names', access: 'session', json: searchBody, ok: one('Listing'), errors: [...owned, 413] },
    auth.required,
    jsonBody(),
    async (ctx) => {
      const input = parse(searchBody, ctx.request.body);
      ctx.body = await core.search.execute({ actor: actorOf(ctx), ...input });
    },
  );
}
