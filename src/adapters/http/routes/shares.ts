import { actorOf, sharePassword } from '../auth.js';
import { jsonBody } from '../json-body.js';
import { sendContent } from '../send-content.js';
import { parse, parseId, shareCreateBody, shareUpdateBody } from '../validation.js';
import type { AppRouter, RouteDeps } from './route-deps.js';

/** Reading a share is public; a token, when sent, must be valid, and the owner's session skips the password. */
export function shareRoutes(router: AppRouter, { core, auth }: RouteDeps): void {
  router.post('/api/share', auth.required, jsonBody(), async (ctx) => {
    const { type, id, password } = parse(shareCreateBody, ctx.request.body);
    ctx.body = await core.createShare.execute({ actor: actorOf(ctx), type, id, password });
    ctx.status = 201;
  });

  router.get('/api/share', auth.required, async (ctx) => {
    ctx.body = await core.listShares.execute({ actor: actorOf(ctx) });
  });

  router.get('/api/share/:id', async (ctx) => {
    const id = parseId(ctx.params.id);
    const actor = await auth.optionalActor(ctx);
    ctx.body = await core.getShare.execute({ actor, id, password: sharePassword(ctx), client: auth.client(ctx) });
  });

  router.get('/api/share/:id/content', async (ctx) => {
    const id = parseId(ctx.params.id);
    const actor = await auth.optionalActor(ctx);
    const password = sharePassword(ctx);
    const content = await core.openShareContent.execute({ actor, id, password, client: auth.client(ctx) });
    await sendContent(ctx, content);
  });

  router.patch('/api/share/:id', auth.required, jsonBody(), async (ctx) => {
    const id = parseId(ctx.params.id);
    const { password } = parse(shareUpdateBody, ctx.request.body);
    ctx.body = await core.updateShare.execute({ actor: actorOf(ctx), id, password });
  });

  router.delete('/api/share/:id', auth.required, async (ctx) => {
    await core.deleteShare.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
    ctx.status = 204;
  });
}
