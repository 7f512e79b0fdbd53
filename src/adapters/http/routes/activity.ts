import type { Context } from 'koa';
import { one } from '../openapi/operation.js';
import { actorOf } from '../session/auth.js';
import { activityQuery, parse, parseId } from '../validation.js';
import { linkNext, pageQuery, parsePage } from './paging.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteTable } from './route-table.js';

const query = pageQuery.extend(activityQuery.shape);

/** The owner's activity: of one share, of one request, or all of it; newest first, paged as every listing. */
export function activityRoutes(routes: RouteTable, { core, auth, options }: RouteDeps): void {
  const list = async (ctx: Context, path: string, target: { shareId?: string; requestId?: string }) => {
    const page = parsePage(ctx);
    const { kind } = parse(activityQuery, { kind: ctx.query.kind });
    const { items, nextCursor } = await core.listActivity.execute({ actor: actorOf(ctx), ...target, ...(kind && { kind }), ...page });
    linkNext(ctx, options, path, page, nextCursor);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = items;
  };

  routes.add(
    { method: 'get', path: '/api/activity', tag: 'activity', summary: 'Activity of all your shares and file requests, newest first', access: 'session', query, ok: one('ActivityEvent[]'), errors: [400, 401, 403] },
    auth.required,
    (ctx) => list(ctx, '/api/activity', {}),
  );
  routes.add(
    { method: 'get', path: '/api/share/{id}/activity', tag: 'activity', summary: 'Activity of one of your shares, newest first', access: 'session', query, ok: one('ActivityEvent[]'), errors: [400, 401, 403, 404] },
    auth.required,
    (ctx) => {
      const id = parseId(ctx.params.id);
      return list(ctx, `/api/share/${id}/activity`, { shareId: id });
    },
  );
  routes.add(
    { method: 'get', path: '/api/request/{id}/activity', tag: 'activity', summary: 'Activity of one of your file requests, newest first', access: 'session', query, ok: one('ActivityEvent[]'), errors: [400, 401, 403, 404] },
    auth.required,
    (ctx) => {
      const id = parseId(ctx.params.id);
      return list(ctx, `/api/request/${id}/activity`, { requestId: id });
    },
  );
}
