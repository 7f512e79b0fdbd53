import type { Context } from 'koa';
import type { RequestKey } from '../../../application/contract.js';
import { DomainError, isDomainError } from '../../../domain/index.js';
import { fromOwnOrigin } from '../session/csrf.js';
import { AUTH_JSON_LIMIT, jsonBody } from '../json-body.js';
import { publicBase, requestUrl } from '../server/public-url.js';
import { parse, parseId, unlockBody } from '../validation.js';
import { REQUEST_GRANT, grantCookie, setGrantCookie } from '../session/grant-cookie.js';
import { sendRequestPage, type RequestPageData } from '../responses/pages/request-page.js';
import type { Answer, Operation } from '../openapi/operation.js';
import { CHECKSUM, TUS_ERRORS, TUS_PATH, TUS_RESUMABLE, TUS_STATE, createTusUpload, tusProtocol, tusState } from './tus.js';
import type { RouteDeps } from './route-deps.js';
import { readerOf } from '../server/reader.js';
import type { RouteTable } from './route-table.js';

const PAGE_OK: Answer[] = [
  { status: 200, description: 'The page of a file request that takes files, or the password form of a protected one', body: 'html' },
  { status: 404, description: 'The page saying the request does not exist', body: 'html' },
  { status: 410, description: 'The page of a request that takes no more files (closed, expired or full), saying which', body: 'html' },
  { status: 429, description: 'The page saying to wait (`Retry-After`): too many unknown ids', body: 'html' },
];
const GRANT = 'The grant for this request only: `coffer_request`, Path=/r/{id}, HttpOnly, SameSite=Strict, Max-Age';

/**
 * A file request's page and what it sends, below /r/{id} so the unlock grant's cookie (scoped to that path) goes
 * with them: the page, its unlock, and the start of each resumable upload (the upload's own address, under
 * /api/upload/tus, is the uploader's handle from then on). None of them reads a token or the session cookie.
 */
export function requestPageRoutes(routes: RouteTable, { core, auth, options, web }: RouteDeps): void {
  if (!options.webDir) return;
  const base = (ctx: Context) => publicBase(ctx, options.publicUrl);
  const keyOf = (ctx: Context, id: string): RequestKey => ({
    id,
    password: null,
    grant: grantCookie(ctx, fromOwnOrigin(ctx, options.publicUrl), REQUEST_GRANT),
    client: auth.client(ctx),
    reader: readerOf(ctx),
  });

  routes.add(
    { method: 'get', path: '/r/{id}', tag: 'web', summary: 'The page of a file request, where people send files', access: 'request-page', ok: PAGE_OK, errors: [503] },
    async (ctx) => {
      const shell = web?.requestShell;
      if (!shell) throw new DomainError('unavailable', 'The web front end is not built: run npm run build:web');
      const raw = ctx.params.id ?? '';
      let data: RequestPageData;
      let status = 200;
      try {
        const request = await core.getPublicRequest.execute(keyOf(ctx, parseId(raw)));
        const url = requestUrl(base(ctx), raw);
        if ('ownerName' in request) {
          data = { state: 'open', request: { ...request, url } };
          if (request.state !== 'active') status = 410;
        } else {
          data = { state: 'locked', request: { ...request, url } };
        }
      } catch (err) {
        if (!isDomainError(err)) throw err;
        if (err.code === 'rate_limited') {
          const retryAfter = Number(err.details['retryAfter'] ?? 60);
          data = { state: 'throttled', retryAfter };
          ctx.set('Retry-After', String(Math.ceil(retryAfter)));
          status = 429;
        } else if (err.code === 'not_found' || err.code === 'bad_request') {
          data = { state: 'not-found' };
          status = 404;
        } else {
          throw err;
        }
      }
      sendRequestPage(ctx, status, shell, data);
    },
  );

  const unlockOp: Operation = {
    method: 'post',
    path: '/r/{id}/unlock',
    tag: 'web',
    summary: 'Unlock a protected file request for its page: what it asks for, and a grant cookie',
    access: 'public',
    json: unlockBody,
    ok: [{ status: 200, description: 'What the request asks for', schema: 'PublicRequest', headers: { 'Set-Cookie': GRANT } }],
    errors: [400, 401, 404, 413, 429],
  };
  routes.add(unlockOp, jsonBody(AUTH_JSON_LIMIT), async (ctx) => {
    const id = parseId(ctx.params.id);
    const { password } = parse(unlockBody, ctx.request.body);
    const { request, grant } = await core.unlockRequest.execute({ ...keyOf(ctx, id), password, grant: null });
    if (grant) setGrantCookie(ctx, id, grant, base(ctx).startsWith('https:'), REQUEST_GRANT);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = request;
  });

  const tusOp: Operation = {
    method: 'post',
    path: '/r/{id}/tus',
    tag: 'web',
    summary: 'tus 1.0 creation of an upload into this file request, for its page (the grant instead of a password)',
    access: 'request-page',
    bytes: 'application/offset+octet-stream',
    headers: [
      TUS_RESUMABLE,
      { name: 'Upload-Length', description: 'The whole upload\'s size in bytes', required: true, integer: true },
      { name: 'Upload-Metadata', description: 'filename, filetype, uploaderName, note (requestId, if sent, must be this request)' },
      CHECKSUM,
    ],
    ok: [{ status: 201, description: 'Created; `Location` is the upload\'s URL under /api/upload/tus, where it goes on with no credential', headers: { ...TUS_STATE, Location: 'The upload\'s URL, `/api/upload/tus/{uploadId}`' } }],
    errors: [400, 401, 403, 404, 408, 410, 412, 413, 415, 429, 460],
    errorHeaders: TUS_ERRORS,
  };
  routes.add(tusOp, tusProtocol, async (ctx) => {
    const key = keyOf(ctx, parseId(ctx.params.id));
    const state = await createTusUpload(ctx, core, { request: key });
    ctx.set('Location', `${TUS_PATH}/${state.id}`);
    tusState(ctx, state, options.publicUrl);
    ctx.status = 201;
  });
}
