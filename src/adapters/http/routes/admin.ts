import { none, one, owned } from '../openapi/operation.js';
import { actorOf } from '../session/auth.js';
import { jsonBody } from '../json-body.js';
import { adminCreateBody, adminUpdateBody, limitChanges, parse, parseId } from '../validation.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteTable } from './route-table.js';

/** The core checks for an admin session; the adapter only authenticates and validates. */
export function adminRoutes(routes: RouteTable, { core, auth }: RouteDeps): void {
  routes.add(
    { method: 'get', path: '/api/admin/users', tag: 'admin', summary: 'Every user', access: 'admin', ok: one('AdminUser[]'), errors: [401, 403] },
    auth.required,
    async (ctx) => {
      ctx.body = await core.listUsers.execute({ actor: actorOf(ctx) });
    },
  );

  routes.add(
    { method: 'get', path: '/api/admin/users/{id}', tag: 'admin', summary: 'A user', access: 'admin', ok: one('AdminUser'), errors: owned },
    auth.required,
    async (ctx) => {
      ctx.body = await core.getUser.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
    },
  );

  routes.add(
    { method: 'post', path: '/api/admin/users', tag: 'admin', summary: 'Create a user', access: 'admin', json: adminCreateBody, ok: one('AdminUser', 201), errors: [400, 401, 403, 409, 413] },
    auth.required,
    jsonBody(),
    async (ctx) => {
      const input = parse(adminCreateBody, ctx.request.body);
      ctx.body = await core.createUser.execute({ actor: actorOf(ctx), ...input });
      ctx.status = 201;
    },
  );

  routes.add(
    { method: 'patch', path: '/api/admin/users/{id}', tag: 'admin', summary: 'Change a user\'s type, password or limits', access: 'admin', json: adminUpdateBody, ok: one('AdminUser'), errors: [...owned, 409, 413] },
    auth.required,
    jsonBody(),
    async (ctx) => {
      const id = parseId(ctx.params.id);
      const { limits, ...changes } = parse(adminUpdateBody, ctx.request.body);
      const input = limits ? { ...changes, limits: limitChanges(limits) } : changes;
      ctx.body = await core.updateUser.execute({ actor: actorOf(ctx), id, ...input });
    },
  );

  routes.add(
    { method: 'delete', path: '/api/admin/users/{id}', tag: 'admin', summary: 'Delete a user and all their data', access: 'admin', ok: none, errors: [...owned, 409] },
    auth.required,
    async (ctx) => {
      await core.deleteUser.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
      ctx.status = 204;
    },
  );
}
