import { actorOf } from '../session/auth.js';
import { jsonBody } from '../json-body.js';
import { linkNext, parsePage } from './paging.js';
import { folderCreateBody, folderUpdateBody, parse, parseId } from '../validation.js';
import type { AppRouter, RouteDeps } from './route-deps.js';

export function folderRoutes(router: AppRouter, { core, auth, options }: RouteDeps): void {
  router.post('/api/folder', auth.required, jsonBody(), async (ctx) => {
    const { name, parentId } = parse(folderCreateBody, ctx.request.body);
    ctx.body = await core.createFolder.execute({ actor: actorOf(ctx), name, parentId });
    ctx.status = 201;
  });

  // The root listing pages (folders first, then files); GET /api/folder/{id} is the spec's and answers whole.
  router.get('/api/folder', auth.required, async (ctx) => {
    const page = parsePage(ctx);
    const root = await core.listRoot.execute({ actor: actorOf(ctx), ...page });
    linkNext(ctx, options, '/api/folder', page, root.nextCursor);
    ctx.body = root;
  });

  router.get('/api/folder/:id', async (ctx) => {
    const id = parseId(ctx.params.id);
    ctx.body = await core.getFolder.execute({ access: await auth.readAccess(ctx), id });
  });

  router.patch('/api/folder/:id', auth.required, jsonBody(), async (ctx) => {
    const id = parseId(ctx.params.id);
    const changes = parse(folderUpdateBody, ctx.request.body);
    ctx.body = await core.updateFolder.execute({ actor: actorOf(ctx), id, ...changes });
  });

  router.delete('/api/folder/:id', auth.required, async (ctx) => {
    await core.deleteFolder.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
    ctx.status = 204;
  });
}
