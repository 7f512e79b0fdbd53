import { actorOf } from '../session/auth.js';
import { jsonBody } from '../json-body.js';
import { linkNext, parsePage } from './paging.js';
import { parse, parseId, pasteCreateBody, pasteUpdateBody } from '../validation.js';
import type { AppRouter, RouteDeps } from './route-deps.js';

export function pasteRoutes(router: AppRouter, { core, auth, options }: RouteDeps): void {
  router.post('/api/paste', auth.required, jsonBody(), async (ctx) => {
    const input = parse(pasteCreateBody, ctx.request.body);
    ctx.body = await core.createPaste.execute({ actor: actorOf(ctx), ...input });
    ctx.status = 201;
  });

  router.get('/api/paste', auth.required, async (ctx) => {
    const page = parsePage(ctx);
    const { items, nextCursor } = await core.listPastes.execute({ actor: actorOf(ctx), ...page });
    linkNext(ctx, options, '/api/paste', page, nextCursor);
    ctx.body = items;
  });

  router.get('/api/paste/:id', async (ctx) => {
    const id = parseId(ctx.params.id);
    ctx.body = await core.getPaste.execute({ access: await auth.readAccess(ctx), id });
  });

  router.patch('/api/paste/:id', auth.required, jsonBody(), async (ctx) => {
    const id = parseId(ctx.params.id);
    const changes = parse(pasteUpdateBody, ctx.request.body);
    ctx.body = await core.updatePaste.execute({ actor: actorOf(ctx), id, ...changes });
  });

  router.delete('/api/paste/:id', auth.required, async (ctx) => {
    await core.deletePaste.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
    ctx.status = 204;
  });
}
