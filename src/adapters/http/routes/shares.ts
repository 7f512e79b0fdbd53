import type { Context } from 'koa';
import type { ShareView } from '../../../application/views.js';
import { BYTES_OK, none, one, owned } from '../openapi/operation.js';
import { actorOf, sharePassword } from '../session/auth.js';
import { jsonBody } from '../json-body.js';
import { publicBase, shareUrl } from '../server/public-url.js';
import { sendFileContent } from '../responses/send-file-content.js';
import { readerOf } from '../server/reader.js';
import { parse, parseId, shareCreateBody, shareUpdateBody } from '../validation.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteTable } from './route-table.js';

/**
 * Reading a share is public; a token, when sent, must be valid, and the owner's session skips the password and the
 * share's state. Every Share answered carries `url`, its page under the public base (public-url.ts).
 */
export function shareRoutes(routes: RouteTable, { core, auth, options }: RouteDeps): void {
  const withUrl = (ctx: Context) => {
    const base = publicBase(ctx, options.publicUrl);
    return (view: ShareView) => ({ ...view, url: shareUrl(base, view.id) });
  };

  routes.add(
    { method: 'post', path: '/api/share', tag: 'shares', summary: 'Share a file, folder, collection or paste', access: 'session-or-uploader', json: shareCreateBody, ok: one('Share', 201), errors: [...owned, 409, 413] },
    auth.required,
    jsonBody(),
    async (ctx) => {
      const { notify, ...input } = parse(shareCreateBody, ctx.request.body);
      const share = await core.createShare.execute({ actor: actorOf(ctx), ...input });
      if (notify) await core.setNotify.execute({ actor: actorOf(ctx), kind: 'share', id: share.id, email: notify.email });
      ctx.body = { ...withUrl(ctx)(share), notify: { email: notify?.email ?? false } };
      ctx.status = 201;
    },
  );

  routes.add(
    { method: 'get', path: '/api/share', tag: 'shares', summary: 'Your shares', access: 'session', ok: one('Share[]'), errors: [400, 401, 403] },
    auth.required,
    async (ctx) => {
      const shares = await core.listShares.execute({ actor: actorOf(ctx) });
      const mailed = await core.notifyOf.execute({ kind: 'share', ids: shares.map((s) => s.id) });
      ctx.body = shares.map(withUrl(ctx)).map((share) => ({ ...share, notify: { email: mailed.has(share.id) } }));
    },
  );

  // Koa's router answers HEAD here too; a HEAD reads nothing out, so it counts no view.
  routes.add(
    { method: 'get', path: '/api/share/{id}', tag: 'shares', summary: 'A share (counts a view)', access: 'public', ok: one('Share'), errors: [400, 401, 404, 410, 429] },
    async (ctx) => {
      const id = parseId(ctx.params.id);
      const actor = await auth.optionalActor(ctx);
      const [password, client, peek, reader] = [sharePassword(ctx), auth.client(ctx), ctx.method === 'HEAD', readerOf(ctx)];
      const share = withUrl(ctx)(await core.getShare.execute({ actor, id, password, client, peek, reader }));
      // The owner's own read carries the mail switch, as their listing does; nobody else learns of it.
      const mine = actor !== null && actor.userId === share.ownerId;
      const notify = mine ? { notify: { email: (await core.notifyOf.execute({ kind: 'share', ids: [share.id] })).has(share.id) } } : {};
      ctx.body = { ...share, ...notify };
    },
  );

  routes.add(
    { method: 'get', path: '/api/share/{id}/content', tag: 'shares', summary: 'The bytes of a shared file or paste', access: 'public', ok: BYTES_OK, errors: [400, 401, 404, 410, 416, 429] },
    async (ctx) => {
      const id = parseId(ctx.params.id);
      const actor = await auth.optionalActor(ctx);
      const password = sharePassword(ctx);
      const content = await core.openShareContent.execute({ actor, id, password, client: auth.client(ctx), reader: readerOf(ctx) });
      await sendFileContent(ctx, content);
    },
  );

  routes.add(
    { method: 'patch', path: '/api/share/{id}', tag: 'shares', summary: 'Change a share\'s options', access: 'session', json: shareUpdateBody, ok: one('Share'), errors: [...owned, 413] },
    auth.required,
    jsonBody(),
    async (ctx) => {
      const id = parseId(ctx.params.id);
      const { notify, ...changes } = parse(shareUpdateBody, ctx.request.body);
      const share = await core.updateShare.execute({ actor: actorOf(ctx), id, ...changes });
      if (notify) await core.setNotify.execute({ actor: actorOf(ctx), kind: 'share', id, email: notify.email });
      const mailed = await core.notifyOf.execute({ kind: 'share', ids: [id] });
      ctx.body = { ...withUrl(ctx)(share), notify: { email: mailed.has(id) } };
    },
  );

  routes.add(
    { method: 'delete', path: '/api/share/{id}', tag: 'shares', summary: 'Delete a share', access: 'session', ok: none, errors: owned },
    auth.required,
    async (ctx) => {
      await core.deleteShare.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
      ctx.status = 204;
    },
  );
}
