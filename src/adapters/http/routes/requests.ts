import type { Context } from 'koa';
import type { RequestKey } from '../../../application/contract.js';
import type { RequestView } from '../../../application/requests/request-views.js';
import { none, one, owned, type RequestHeader } from '../openapi/operation.js';
import { answerNow } from '../responses/answer-now.js';
import { actorOf } from '../session/auth.js';
import { headerText } from '../session/header-text.js';
import { jsonBody } from '../json-body.js';
import { publicBase, requestUrl } from '../server/public-url.js';
import { receiveUpload } from '../uploads/multipart-upload.js';
import { linkNext, pageQuery, parsePage } from './paging.js';
import { parse, parseId, requestCreateBody, requestUpdateBody } from '../validation.js';
import { z } from 'zod';
import type { RouteDeps } from './route-deps.js';
import { readerOf } from '../server/reader.js';
import type { RouteTable } from './route-table.js';

export const REQUEST_PASSWORD: RequestHeader = {
  name: 'X-Request-Password',
  description: 'The password of a protected file request (UTF-8); never needed with the page\'s grant',
};

/** A file request's password as an API client sends it. */
export function requestPassword(ctx: Context): string | null {
  const raw = ctx.get(REQUEST_PASSWORD.name);
  return raw === '' ? null : headerText(raw);
}

/** The multipart form of an upload into a file request, as the OpenAPI document describes it. */
const REQUEST_FORM = z.object({
  uploaderName: z.string().describe('Who sends the file (required when the request says requireName)'),
  note: z.string().describe('A note for the owner'),
});

/**
 * File requests: the owner manages them with a session (API tokens: 403); anyone with the link (and the password of
 * a protected one) reads what the request asks for and sends files, with no credential at all. The routes an
 * uploader calls read no token and no session cookie: an uploader is nobody, and a signed-in owner trying their
 * own link is treated the same way.
 */
export function requestRoutes(routes: RouteTable, { core, auth, options }: RouteDeps): void {
  const withUrl = (ctx: Context, view: RequestView) => ({ ...view, url: requestUrl(publicBase(ctx, options.publicUrl), view.id) });
  const keyOf = (ctx: Context): RequestKey => ({
    id: parseId(ctx.params.id),
    password: requestPassword(ctx),
    client: auth.client(ctx),
    reader: readerOf(ctx),
  });

  routes.add(
    { method: 'post', path: '/api/request', tag: 'file requests', summary: 'Create a file request', access: 'session', json: requestCreateBody, ok: one('Request', 201), errors: [...owned, 413] },
    auth.required,
    jsonBody(),
    async (ctx) => {
      const { notify, ...input } = parse(requestCreateBody, ctx.request.body);
      const made = await core.createRequest.execute({ actor: actorOf(ctx), ...input });
      if (notify) await core.setNotify.execute({ actor: actorOf(ctx), kind: 'request', id: made.id, email: notify.email });
      ctx.body = { ...withUrl(ctx, made), notify: { email: notify?.email ?? false } };
      ctx.status = 201;
    },
  );

  routes.add(
    { method: 'get', path: '/api/request', tag: 'file requests', summary: 'Your file requests', access: 'session', query: pageQuery, ok: one('Request[]'), errors: [400, 401, 403] },
    auth.required,
    async (ctx) => {
      const page = parsePage(ctx);
      const { items, nextCursor } = await core.listRequests.execute({ actor: actorOf(ctx), ...page });
      linkNext(ctx, options, '/api/request', page, nextCursor);
      const mailed = await core.notifyOf.execute({ kind: 'request', ids: items.map((view) => view.id) });
      ctx.body = items.map((view) => ({ ...withUrl(ctx, view), notify: { email: mailed.has(view.id) } }));
    },
  );

  routes.add(
    { method: 'get', path: '/api/request/{id}', tag: 'file requests', summary: 'A file request of yours', access: 'session', ok: one('Request'), errors: owned },
    auth.required,
    async (ctx) => {
      const view = await core.getRequest.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
      const mailed = await core.notifyOf.execute({ kind: 'request', ids: [view.id] });
      ctx.body = { ...withUrl(ctx, view), notify: { email: mailed.has(view.id) } };
    },
  );

  routes.add(
    { method: 'patch', path: '/api/request/{id}', tag: 'file requests', summary: 'Change, close or reopen a file request', access: 'session', json: requestUpdateBody, ok: one('Request'), errors: [...owned, 413] },
    auth.required,
    jsonBody(),
    async (ctx) => {
      const id = parseId(ctx.params.id);
      const { notify, ...changes } = parse(requestUpdateBody, ctx.request.body);
      const view = await core.updateRequest.execute({ actor: actorOf(ctx), id, ...changes });
      if (notify) await core.setNotify.execute({ actor: actorOf(ctx), kind: 'request', id, email: notify.email });
      const mailed = await core.notifyOf.execute({ kind: 'request', ids: [id] });
      ctx.body = { ...withUrl(ctx, view), notify: { email: mailed.has(id) } };
    },
  );

  routes.add(
    { method: 'delete', path: '/api/request/{id}', tag: 'file requests', summary: 'Delete a file request (its files stay)', access: 'session', ok: none, errors: owned },
    auth.required,
    async (ctx) => {
      await core.deleteRequest.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
      ctx.status = 204;
    },
  );

  routes.add(
    { method: 'get', path: '/api/request/{id}/public', tag: 'file requests', summary: 'What a file request asks for (for uploaders; no credential)', access: 'public', headers: [REQUEST_PASSWORD], ok: one('PublicRequest'), errors: [400, 401, 404, 429] },
    async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await core.getPublicRequest.execute(keyOf(ctx));
    },
  );

  // The answer goes out before the upload commits, as for POST /api/file: an uploader gone before it hears the answer
  // has the upload undone.
  routes.add(
    { method: 'post', path: '/api/request/{id}/file', tag: 'file requests', summary: 'Send a file to a file request (no credential)', access: 'public', headers: [REQUEST_PASSWORD], multipart: REQUEST_FORM, ok: one('ReceivedFile', 201), errors: [400, 401, 403, 404, 408, 410, 413, 415, 429] },
    async (ctx) => {
      const key = keyOf(ctx);
      const deliver = (file: unknown) => answerNow(ctx, 201, file);
      await receiveUpload(
        ctx.req,
        options.maxUploadBytes,
        ({ content, filename, mime, sender }) => core.receiveFile.execute({ ...key, ...sender, content, filename, mime, deliver }),
        'request',
      );
    },
  );
}
