import type { Context } from 'koa';
import type { ShareView } from '../../../application/views.js';
import { actorOf, sharePassword } from '../session/auth.js';
import { jsonBody } from '../json-body.js';
import { publicBase, shareUrl } from '../server/public-url.js';
import { sendFileContent } from '../responses/send-file-content.js';
import { parse, parseId, shareCreateBody, shareUpdateBody } from '../validation.js';
import type { AppRouter, RouteDeps } from './route-deps.js';

/**
 * Reading a share is public; a token, when sent, must be valid, and the owner's session skips the password and the
 * share's state. Every Share answered carries `url`, its page under the public base (public-url.ts).
 */
export function shareRoutes(router: AppRouter, { core, auth, options }: RouteDeps): void {
  const withUrl = (ctx: Context) => {
    const base = publicBase(ctx, options.publicUrl);
    return (view: ShareView) => ({ ...view, url: shareUrl(base, view.id) });
  };

  router.post('/api/share', auth.required, jsonBody(), async (ctx) => {
    const input = parse(shareCreateBody, ctx.request.body);
    ctx.body = withUrl(ctx)(await core.createShare.execute({ actor: actorOf(ctx), ...input }));
    ctx.status = 201;
  });

  router.get('/api/share', auth.required, async (ctx) => {
    ctx.body = (await core.listShares.execute({ actor: actorOf(ctx) })).map(withUrl(ctx));
  });

  // Koa's router answers HEAD here too; a HEAD reads nothing out, so it counts no view.
  router.get('/api/share/:id', async (ctx) => {
    const id = parseId(ctx.params.id);
    const actor = await auth.optionalActor(ctx);
    const [password, client, peek] = [sharePassword(ctx), auth.client(ctx), ctx.method === 'HEAD'];
    ctx.body = withUrl(ctx)(await core.getShare.execute({ actor, id, password, client, peek }));
  });

  router.get('/api/share/:id/content', async (ctx) => {
    const id = parseId(ctx.params.id);
    const actor = await auth.optionalActor(ctx);
    const password = sharePassword(ctx);
    const content = await core.openShareContent.execute({ actor, id, password, client: auth.client(ctx) });
    await sendFileContent(ctx, content);
  });

  router.patch('/api/share/:id', auth.required, jsonBody(), async (ctx) => {
    const id = parseId(ctx.params.id);
    const changes = parse(shareUpdateBody, ctx.request.body);
    ctx.body = withUrl(ctx)(await core.updateShare.execute({ actor: actorOf(ctx), id, ...changes }));
  });

  router.delete('/api/share/:id', auth.required, async (ctx) => {
    await core.deleteShare.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
    ctx.status = 204;
  });
}
