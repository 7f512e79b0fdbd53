import type { Context, Middleware } from 'koa';
import { z } from 'zod';
import type { ErrorCode } from '../../../domain/index.js';
import { isDomainError } from '../../../domain/index.js';
import type { HttpLogger } from '../http-options.js';
import { validationError } from '../validation.js';
import { EVERY_ANSWER } from './answer-headers.js';

/** The one table from domain error codes to HTTP statuses. */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  limit_reached: 403,
  payload_too_large: 413,
  rate_limited: 429,
  share_password_required: 401,
  share_password_invalid: 401,
  unavailable: 503,
  precondition_failed: 412,
  unsupported_media_type: 415,
  // tus 1.0's checksum extension names this status.
  checksum_mismatch: 460,
};

export interface ErrorBody {
  error: ErrorCode | 'internal';
  message: string;
  [detail: string]: unknown;
}

interface HttpFailure {
  status: number;
  body: ErrorBody;
}

const INTERNAL: HttpFailure = { status: 500, body: { error: 'internal', message: 'Internal server error' } };

/** What a client may learn about a failure; anything unexpected becomes an opaque 500. */
export function toHttpFailure(err: unknown): HttpFailure {
  const known = err instanceof z.ZodError ? validationError(err) : err;
  if (!isDomainError(known)) return INTERNAL;
  const body: ErrorBody = { ...known.details, error: known.code, message: known.message };
  // The core names the one field it refused (`field`); a client reads every validation failure from `issues`.
  const field = known.details?.['field'];
  if (known.code === 'bad_request' && typeof field === 'string' && body['issues'] === undefined) {
    body['issues'] = [{ path: field, message: known.message }];
  }
  return { status: STATUS_BY_CODE[known.code], body };
}

/** Replaces whatever a handler set (content headers included) with an error response in the one shape. */
export function sendError(ctx: Context, status: number, body: ErrorBody): void {
  for (const name of ctx.res.getHeaderNames()) ctx.res.removeHeader(name);
  ctx.set(EVERY_ANSWER);
  // Two challenges (RFC 9110 §11.6.1): the spec's scheme first, then Bearer for the clients that only know that one.
  // Neither makes a browser open its own sign-in dialog, as Basic would.
  if (status === 401) ctx.set('WWW-Authenticate', 'Token, Bearer');
  const retryAfter = body['retryAfter'];
  if (status === 429 && typeof retryAfter === 'number') ctx.set('Retry-After', String(Math.ceil(retryAfter)));
  ctx.body = body;
  ctx.status = status;
}

/**
 * The one top-level error middleware. Unknown routes answer 404 not_found; a known path with the wrong method
 * answers 405 with code bad_request (and `Allow`), since the error table has no code of its own for it.
 */
export function errorMiddleware(logger: HttpLogger): Middleware {
  return async (ctx, next) => {
    ctx.set(EVERY_ANSWER);
    try {
      await next();
      if (ctx.body != null) return;
      if (ctx.status === 404) sendError(ctx, 404, { error: 'not_found', message: 'No such route' });
      else if (ctx.status === 405 || ctx.status === 501) {
        const allow = ctx.response.get('Allow');
        sendError(ctx, ctx.status, { error: 'bad_request', message: 'Method not allowed on this route' });
        if (allow) ctx.set('Allow', allow);
      }
    } catch (err) {
      const failure = toHttpFailure(err);
      if (failure.status >= 500) logger.error({ err, method: ctx.method, path: ctx.path }, 'request failed');
      if (ctx.headerSent || !ctx.writable) return;
      sendError(ctx, failure.status, failure.body);
    }
  };
}
