import { actorOf } from '../session/auth.js';
import { jsonBody } from '../json-body.js';
import { contentDispositionOf } from '../responses/content-disposition.js';
import { publicBase } from '../server/public-url.js';
import { sharexConfig } from '../responses/sharex-config.js';
import { linkNext, parsePage } from './paging.js';
import { parse, parseId, tokenCreateBody } from '../validation.js';
import type { AppRouter, RouteDeps } from './route-deps.js';

export function tokenRoutes(router: AppRouter, { core, auth, options }: RouteDeps): void {
  router.post('/api/token', auth.required, jsonBody(), async (ctx) => {
    const { name } = parse(tokenCreateBody, ctx.request.body);
    ctx.body = await core.createApiToken.execute({ actor: actorOf(ctx), name });
    ctx.status = 201;
  });

  // A new uploader token, handed out inside a ShareX config: the one answer besides POST /api/token with its secret.
  router.post('/api/token/sharex', auth.required, jsonBody(), async (ctx) => {
    const { name } = parse(tokenCreateBody, ctx.request.body);
    const created = await core.createApiToken.execute({ actor: actorOf(ctx), name });
    const base = publicBase(ctx, options.publicUrl);
    ctx.set('Content-Disposition', contentDispositionOf(`${sxcuName(name)}.sxcu`, 'attachment'));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = sharexConfig(base, created.token);
    ctx.status = 201;
  });

  router.get('/api/token', auth.required, async (ctx) => {
    const page = parsePage(ctx);
    const { items, nextCursor } = await core.listApiTokens.execute({ actor: actorOf(ctx), ...page });
    linkNext(ctx, options, '/api/token', page, nextCursor);
    ctx.body = items;
  });

  router.delete('/api/token/:id', auth.required, async (ctx) => {
    await core.deleteApiToken.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
    ctx.status = 204;
  });
}

/** A file name from the token's name: letters, digits, dot, dash and underscore (others become dashes), else "coffer". */
function sxcuName(name: string): string {
  return name.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^[-.]+|[-.]+$/g, '').slice(0, 64) || 'coffer';
}
