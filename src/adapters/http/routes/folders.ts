import { none, one, owned, read } from '../openapi/operation.js';
import { actorOf } from '../session/auth.js';
import { jsonBody } from '../json-body.js';
import { linkNext, pageQuery, parsePage } from './paging.js';
import { folderCreateBody, folderUpdateBody, parse, parseId } from '../validation.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteTable } from './route-table.js';

export function folderRoutes(routes: RouteTable, { core, auth, options }: RouteDeps): void {
  routes.add(
    { method: 'post', path: '/api/folder', tag: 'folders', summary: 'Create a folder', access: 'session', json: folderCreateBody, ok: one('Folder', 201), errors: [...owned, 413] },
    auth.required,
    jsonBody(),
    async (ctx) => {
      const { name, parentId } = parse(folderCreateBody, ctx.request.body);
      ctx.body = await core.createFolder.execute({ actor: actorOf(ctx), name, parentId });
      ctx.status = 201;
    },
  );

  // The root listing pages (folders first, then files); GET /api/folder/{id} is the spec's and answers whole.
  routes.add(
    { method: 'get', path: '/api/folder', tag: 'folders', summary: 'The top level', access: 'session', query: pageQuery, ok: one('Root'), errors: [400, 401, 403] },
    auth.required,
    async (ctx) => {
      const page = parsePage(ctx);
      const root = await core.listRoot.execute({ actor: actorOf(ctx), ...page });
      linkNext(ctx, options, '/api/folder', page, root.nextCursor);
      ctx.body = root;
    },
  );

  routes.add(
    { method: 'get', path: '/api/folder/{id}', tag: 'folders', summary: 'A folder with its whole subtree', access: 'session-or-share', ok: one('Folder'), errors: read },
    async (ctx) => {
      const id = parseId(ctx.params.id);
      ctx.body = await core.getFolder.execute({ access: await auth.readAccess(ctx), id });
    },
  );

  routes.add(
    { method: 'patch', path: '/api/folder/{id}', tag: 'folders', summary: 'Rename or move a folder', access: 'session', json: folderUpdateBody, ok: one('Folder'), errors: [...owned, 409, 413] },
    auth.required,
    jsonBody(),
    async (ctx) => {
      const id = parseId(ctx.params.id);
      const changes = parse(folderUpdateBody, ctx.request.body);
      ctx.body = await core.updateFolder.execute({ actor: actorOf(ctx), id, ...changes });
    },
  );

  routes.add(
    { method: 'delete', path: '/api/folder/{id}', tag: 'folders', summary: 'Delete a folder and its subtree', access: 'session', ok: none, errors: owned },
    auth.required,
    async (ctx) => {
      await core.deleteFolder.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
      ctx.status = 204;
    },
  );
}
