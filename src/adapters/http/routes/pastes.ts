import { none, one, owned, read } from '../openapi/operation.js';
import { actorOf } from '../session/auth.js';
import { jsonBody } from '../json-body.js';
import { linkNext, pageQuery, parsePage } from './paging.js';
import { parse, parseId, pasteCreateBody, pasteUpdateBody } from '../validation.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteTable } from './route-table.js';

export function pasteRoutes(routes: RouteTable, { core, auth, options }: RouteDeps): void {
  routes.add(
    { method: 'post', path: '/api/paste', tag: 'pastes', summary: 'Create a paste (and share it with share: true)', access: 'session-or-uploader', json: pasteCreateBody, ok: one('Paste', 201), errors: [...owned, 409, 413] },
    auth.required,
    jsonBody(),
    async (ctx) => {
      const input = parse(pasteCreateBody, ctx.request.body);
      ctx.body = await core.createPaste.execute({ actor: actorOf(ctx), ...input });
      ctx.status = 201;
    },
  );

  routes.add(
    { method: 'get', path: '/api/paste', tag: 'pastes', summary: 'Your pastes', access: 'session', query: pageQuery, ok: one('Paste[]'), errors: [400, 401, 403] },
    auth.required,
    async (ctx) => {
      const page = parsePage(ctx);
      const { items, nextCursor } = await core.listPastes.execute({ actor: actorOf(ctx), ...page });
      linkNext(ctx, options, '/api/paste', page, nextCursor);
      ctx.body = items;
    },
  );

  routes.add(
    { method: 'get', path: '/api/paste/{id}', tag: 'pastes', summary: 'A paste', access: 'session-or-share', ok: one('Paste'), errors: read },
    async (ctx) => {
      const id = parseId(ctx.params.id);
      ctx.body = await core.getPaste.execute({ access: await auth.readAccess(ctx), id });
    },
  );

  routes.add(
    { method: 'patch', path: '/api/paste/{id}', tag: 'pastes', summary: 'Change a paste', access: 'session', json: pasteUpdateBody, ok: one('Paste'), errors: [...owned, 409, 413] },
    auth.required,
    jsonBody(),
    async (ctx) => {
      const id = parseId(ctx.params.id);
      const changes = parse(pasteUpdateBody, ctx.request.body);
      ctx.body = await core.updatePaste.execute({ actor: actorOf(ctx), id, ...changes });
    },
  );

  routes.add(
    { method: 'delete', path: '/api/paste/{id}', tag: 'pastes', summary: 'Delete a paste', access: 'session', ok: none, errors: owned },
    auth.required,
    async (ctx) => {
      await core.deletePaste.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
      ctx.status = 204;
    },
  );
}
