import { actorOf } from '../session/auth.js';
import { jsonBody } from '../json-body.js';
import { adminCreateBody, adminUpdateBody, limitChanges, parse, parseId } from '../validation.js';
import type { AppRouter, RouteDeps } from './route-deps.js';

/** The core checks for an admin session; the adapter only authenticates and validates. */
export function adminRoutes(router: AppRouter, { core, auth }: RouteDeps): void {
  router.get('/api/admin/users', auth.required, async (ctx) => {
    ctx.body = await core.listUsers.execute({ actor: actorOf(ctx) });
  });

  router.get('/api/admin/users/:id', auth.required, async (ctx) => {
    ctx.body = await core.getUser.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
  });

  router.post('/api/admin/users', auth.required, jsonBody(), async (ctx) => {
    const input = parse(adminCreateBody, ctx.request.body);
    ctx.body = await core.createUser.execute({ actor: actorOf(ctx), ...input });
    ctx.status = 201;
  });

  router.patch('/api/admin/users/:id', auth.required, jsonBody(), async (ctx) => {
    const id = parseId(ctx.params.id);
    const { limits, ...changes } = parse(adminUpdateBody, ctx.request.body);
    const input = limits ? { ...changes, limits: limitChanges(limits) } : changes;
    ctx.body = await core.updateUser.execute({ actor: actorOf(ctx), id, ...input });
  });

  router.delete('/api/admin/users/:id', auth.required, async (ctx) => {
    await core.deleteUser.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
    ctx.status = 204;
  });
}
