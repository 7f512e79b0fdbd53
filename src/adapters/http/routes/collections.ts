import { actorOf } from '../session/auth.js';
import { jsonBody } from '../json-body.js';
import { linkNext, parsePage } from './paging.js';
import { collectionCreateBody, collectionUpdateBody, parse, parseId } from '../validation.js';
import type { AppRouter, RouteDeps } from './route-deps.js';

export function collectionRoutes(router: AppRouter, { core, auth, options }: RouteDeps): void {
  router.post('/api/collection', auth.required, jsonBody(), async (ctx) => {
    const { name } = parse(collectionCreateBody, ctx.request.body);
    ctx.body = await core.createCollection.execute({ actor: actorOf(ctx), name });
    ctx.status = 201;
  });

  router.get('/api/collection', auth.required, async (ctx) => {
    const page = parsePage(ctx);
    const { items, nextCursor } = await core.listCollections.execute({ actor: actorOf(ctx), ...page });
    linkNext(ctx, options, '/api/collection', page, nextCursor);
    ctx.body = items;
  });

  router.get('/api/collection/:id', async (ctx) => {
    const id = parseId(ctx.params.id);
    ctx.body = await core.getCollection.execute({ access: await auth.readAccess(ctx), id });
  });

  router.patch('/api/collection/:id', auth.required, jsonBody(), async (ctx) => {
    const id = parseId(ctx.params.id);
    const changes = parse(collectionUpdateBody, ctx.request.body);
    ctx.body = await core.updateCollection.execute({ actor: actorOf(ctx), id, ...changes });
  });

  router.delete('/api/collection/:id', auth.required, async (ctx) => {
    await core.deleteCollection.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
    ctx.status = 204;
  });

  // Adding is idempotent (PUT) and answers with the collection; removing is a delete, so 204.
  router.put('/api/collection/:id/file/:fileId', auth.required, async (ctx) => {
    const id = parseId(ctx.params.id);
    const fileId = parseId(ctx.params.fileId, 'fileId');
    ctx.body = await core.addToCollection.execute({ actor: actorOf(ctx), id, fileId });
  });

  router.delete('/api/collection/:id/file/:fileId', auth.required, async (ctx) => {
    const id = parseId(ctx.params.id);
    const fileId = parseId(ctx.params.fileId, 'fileId');
    await core.removeFromCollection.execute({ actor: actorOf(ctx), id, fileId });
    ctx.status = 204;
  });
}
