import { none, one, owned } from '../openapi/operation.js';
import { actorOf } from '../session/auth.js';
import { jsonBody } from '../json-body.js';
import { contentDispositionOf } from '../responses/content-disposition.js';
import { publicBase } from '../server/public-url.js';
import { sharexConfig } from '../responses/sharex-config.js';
import { linkNext, pageQuery, parsePage } from './paging.js';
import { parse, parseId, sharexTokenBody, tokenCreateBody } from '../validation.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteTable } from './route-table.js';

export function tokenRoutes(routes: RouteTable, { core, auth, options }: RouteDeps): void {
  routes.add(
    { method: 'post', path: '/api/token', tag: 'tokens', summary: 'Create an API token (uploader or dav scope)', access: 'session', json: tokenCreateBody, ok: one('CreatedToken', 201), errors: [400, 401, 403, 413] },
    auth.required,
    jsonBody(),
    async (ctx) => {
      const { name, scope } = parse(tokenCreateBody, ctx.request.body);
      ctx.body = await core.createApiToken.execute({ actor: actorOf(ctx), name, scope });
      ctx.status = 201;
    },
  );

  // A new uploader token, handed out inside a ShareX config: the one answer besides POST /api/token with its secret.
  routes.add(
    { method: 'post', path: '/api/token/sharex', tag: 'tokens', summary: 'Create an uploader token inside a ShareX config', access: 'session', json: sharexTokenBody, ok: one('SharexConfig', 201), errors: [400, 401, 403, 413] },
    auth.required,
    jsonBody(),
    async (ctx) => {
      const { name } = parse(sharexTokenBody, ctx.request.body);
      const created = await core.createApiToken.execute({ actor: actorOf(ctx), name });
      const base = publicBase(ctx, options.publicUrl);
      ctx.set('Content-Disposition', contentDispositionOf(`${sxcuName(name)}.sxcu`, 'attachment'));
      ctx.set('Cache-Control', 'no-store');
      ctx.body = sharexConfig(base, created.token);
      ctx.status = 201;
    },
  );

  routes.add(
    { method: 'get', path: '/api/token', tag: 'tokens', summary: 'Your API tokens', access: 'session', query: pageQuery, ok: one('Token[]'), errors: [400, 401, 403] },
    auth.required,
    async (ctx) => {
      const page = parsePage(ctx);
      const { items, nextCursor } = await core.listApiTokens.execute({ actor: actorOf(ctx), ...page });
      linkNext(ctx, options, '/api/token', page, nextCursor);
      ctx.body = items;
    },
  );

  routes.add(
    { method: 'delete', path: '/api/token/{id}', tag: 'tokens', summary: 'Revoke an API token', access: 'session', ok: none, errors: owned },
    auth.required,
    async (ctx) => {
      await core.deleteApiToken.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
      ctx.status = 204;
    },
  );
}

/** A file name from the token's name: letters, digits, dot, dash and underscore (others become dashes), else "coffer". */
function sxcuName(name: string): string {
  return name.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^[-.]+|[-.]+$/g, '').slice(0, 64) || 'coffer';
}
