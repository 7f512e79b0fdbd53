import { none, one, owned, read } from '../openapi/operation.js';
import { actorOf } from '../session/auth.js';
import { jsonBody } from '../json-body.js';
import { linkNext, pageQuery, parsePage } from './paging.js';
import { collectionCreateBody, collectionUpdateBody, parse, parseId } from '../validation.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteTable } from './route-table.js';

export function collectionRoutes(routes: RouteTable, { core, auth, options }: RouteDeps): void {
  routes.add(
    { method: 'post', path: '/api/collection', tag: 'collections', summary: 'Create a collection', access: 'session', json: collectionCreateBody, ok: one('Collection', 201), errors: [400, 401, 403, 413] },
    auth.required,
    jsonBody(),
    async (ctx) => {
      const { name } = parse(collectionCreateBody, ctx.request.body);
      ctx.body = await core.createCollection.execute({ actor: actorOf(ctx), name });
      ctx.status = 201;
    },
  );

  routes.add(
    { method: 'get', path: '/api/collection', tag: 'collections', summary: 'Your collections', access: 'session', query: pageQuery, ok: one('Collection[]'), errors: [400, 401, 403] },
    auth.required,
    async (ctx) => {
      const page = parsePage(ctx);
      const { items, nextCursor } = await core.listCollections.execute({ actor: actorOf(ctx), ...page });
      linkNext(ctx, options, '/api/collection', page, nextCursor);
      ctx.body = items;
    },
  );

  routes.add(
    { method: 'get', path: '/api/collection/{id}', tag: 'collections', summary: 'A collection', access: 'session-or-share', ok: one('Collection'), errors: read },
    async (ctx) => {
      const id = parseId(ctx.params.id);
      ctx.body = await core.getCollection.execute({ access: await auth.readAccess(ctx), id });
    },
  );

  routes.add(
    { method: 'patch', path: '/api/collection/{id}', tag: 'collections', summary: 'Rename a collection', access: 'session', json: collectionUpdateBody, ok: one('Collection'), errors: [...owned, 413] },
    auth.required,
    jsonBody(),
    async (ctx) => {
      const id = parseId(ctx.params.id);
      const changes = parse(collectionUpdateBody, ctx.request.body);
      ctx.body = await core.updateCollection.execute({ actor: actorOf(ctx), id, ...changes });
    },
  );

  routes.add(
    { method: 'delete', path: '/api/collection/{id}', tag: 'collections', summary: 'Delete a collection (its files stay)', access: 'session', ok: none, errors: owned },
    auth.required,
    async (ctx) => {
      await core.deleteCollection.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
      ctx.status = 204;
    },
  );

  // Adding is idempotent (PUT) and answers with the collection; removing is a delete, so 204.
  routes.add(
    { method: 'put', path: '/api/collection/{id}/file/{fileId}', tag: 'collections', summary: 'Add a file (idempotent)', access: 'session', ok: one('Collection'), errors: owned },
    auth.required,
    async (ctx) => {
      const id = parseId(ctx.params.id);
      const fileId = parseId(ctx.params.fileId, 'fileId');
      ctx.body = await core.addToCollection.execute({ actor: actorOf(ctx), id, fileId });
    },
  );

  routes.add(
    { method: 'delete', path: '/api/collection/{id}/file/{fileId}', tag: 'collections', summary: 'Remove a file', access: 'session', ok: none, errors: owned },
    auth.required,
    async (ctx) => {
      const id = parseId(ctx.params.id);
      const fileId = parseId(ctx.params.fileId, 'fileId');
      await core.removeFromCollection.execute({ actor: actorOf(ctx), id, fileId });
      ctx.status = 204;
    },
  );
}
