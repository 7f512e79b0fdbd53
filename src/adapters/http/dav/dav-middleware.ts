import type { Context, Middleware } from 'koa';
import type { Core } from '../../../application/contract.js';
import { isDomainError } from '../../../domain/index.js';
import { toHttpFailure } from '../responses/errors.js';
import { EVERY_ANSWER } from '../responses/answer-headers.js';
import { BASIC_CHALLENGE, davActor } from './dav-auth.js';
import { DAV_ROOT, DavPathError, lockPath, segmentsOf } from './dav-path.js';
import { copyOrMove } from './copy-move.js';
import { DavStatus, LockGuard } from './lock-guard.js';
import { lock, unlock } from './lock-methods.js';
import { propfind } from './propfind.js';
import { proppatch } from './proppatch.js';
import type { DavRequest } from './dav-request.js';
import { del, getContent, mkcol, put } from './write-methods.js';

export const DAV_METHODS = ['OPTIONS', 'GET', 'HEAD', 'PUT', 'DELETE', 'MKCOL', 'COPY', 'MOVE', 'PROPFIND', 'PROPPATCH', 'LOCK', 'UNLOCK'];

const HANDLERS: Record<string, (req: DavRequest) => Promise<void>> = {
  GET: getContent,
  HEAD: getContent,
  PUT: put,
  DELETE: del,
  MKCOL: mkcol,
  COPY: (req) => copyOrMove(req, false),
  MOVE: (req) => copyOrMove(req, true),
  PROPFIND: propfind,
  PROPPATCH: proppatch,
  LOCK: lock,
  UNLOCK: unlock,
};

/** Domain failures as WebDAV clients expect them: a maximum reached is 507 Insufficient Storage (RFC 4918 §11.5). */
function statusOf(err: unknown): { status: number; message: string; retryAfter?: number } | null {
  if (err instanceof DavStatus) return { status: err.status, message: err.message };
  if (!isDomainError(err)) return null;
  if (err.code === 'limit_reached') return { status: 507, message: err.message };
  const { status, body } = toHttpFailure(err);
  const retryAfter = typeof body['retryAfter'] === 'number' ? body['retryAfter'] : undefined;
  return { status, message: err.message, ...(retryAfter !== undefined && { retryAfter }) };
}

function sendFailure(ctx: Context, failure: { status: number; message: string; retryAfter?: number }, condition?: string) {
  if (ctx.res.headersSent) return;
  for (const name of ctx.res.getHeaderNames()) ctx.res.removeHeader(name);
  ctx.set(EVERY_ANSWER);
  ctx.set('DAV', '1, 2');
  if (failure.status === 401) ctx.set('WWW-Authenticate', BASIC_CHALLENGE);
  if (failure.retryAfter !== undefined) ctx.set('Retry-After', String(Math.ceil(failure.retryAfter)));
  ctx.status = failure.status;
  if (condition) {
    ctx.type = 'application/xml; charset=utf-8';
    ctx.body = `<?xml version="1.0" encoding="utf-8"?>\n<D:error xmlns:D="DAV:"><D:${condition}/></D:error>\n`;
  } else {
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = `${failure.message}\n`;
  }
}

function options(ctx: Context) {
  ctx.set('Allow', DAV_METHODS.join(', '));
  ctx.set('MS-Author-Via', 'DAV');
  ctx.status = 200;
  ctx.body = '';
}

/**
 * WebDAV at /dav/ (RFC 4918 classes 1 and 2), signed in with HTTP Basic (a dav token, or the password of an account
 * without a second factor). Everything else passes on to the API's router. Not in the OpenAPI document: it is no
 * JSON API; docs/API.md, "WebDAV", describes it.
 */
export function davMiddleware(core: Core, maxUploadBytes: number): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== DAV_ROOT && !ctx.path.startsWith(`${DAV_ROOT}/`)) return next();
    ctx.set('DAV', '1, 2');
    ctx.set('MS-Author-Via', 'DAV');
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.set('Cache-Control', 'no-store');
    try {
      // A fragment never belongs in a request target (RFC 9112 §3.2); taking the path without it would act on the
      // collection above (litmus's delete_fragment).
      if (ctx.url.includes('#')) return sendFailure(ctx, { status: 400, message: 'A request target cannot hold a fragment (#)' });
      const names = segmentsOf(ctx.path);
      const method = ctx.method.toUpperCase();
      if (method === 'OPTIONS' && !ctx.get('Authorization')) return options(ctx);
      const actor = await davActor(core, ctx);
      if (!actor) return sendFailure(ctx, { status: 401, message: 'Sign in with your user name and a dav token' });
      if (method === 'OPTIONS') return options(ctx);
      const handler = HANDLERS[method];
      if (!handler) {
        ctx.set('Allow', DAV_METHODS.join(', '));
        return sendFailure(ctx, { status: 405, message: `${method} is not served here` });
      }
      const guard = new LockGuard(core, actor, lockPath(names), ctx.get('If'));
      await handler({ ctx, core, actor, names, guard, maxUploadBytes });
    } catch (err) {
      if (err instanceof DavPathError) return sendFailure(ctx, { status: 400, message: err.message });
      const failure = statusOf(err);
      if (!failure) throw err;
      sendFailure(ctx, failure, err instanceof DavStatus ? err.condition : undefined);
    }
  };
}
