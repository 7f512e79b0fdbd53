import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { DomainError, badRequest } from '../../domain/index.js';

export const JSON_LIMIT = 1024 * 1024;
// A username and a password (at most 256 characters) fit many times over; anything bigger is refused unread.
export const AUTH_JSON_LIMIT = 16 * 1024;

/** What the body parser's errors (http-errors from raw-body/co-body) mean for a client. */
function bodyError(err: unknown, limit: number): DomainError {
  const status = (err as { status?: unknown }).status;
  if (status === 413) {
    return new DomainError('payload_too_large', `Request body is too large: at most ${limit} bytes`, { maxBytes: limit });
  }
  if (err instanceof SyntaxError) return badRequest('Malformed JSON body');
  return badRequest('Unreadable request body');
}

/**
 * Parses a JSON object body of at most `limit` bytes into ctx.request.body ({} when there is no body).
 * Only application/json is parsed; any other body on a JSON route is a bad_request. Strict: the top level must be
 * an object or array, and `__proto__` keys are refused.
 */
export function jsonBody(limit = JSON_LIMIT): Middleware {
  // DELETE too: DELETE /api/auth/mfa/totp carries its proof ({password, code}) in its body.
  const parser = bodyParser({
    enableTypes: ['json'],
    jsonLimit: limit,
    jsonStrict: true,
    parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
  });
  return async (ctx, next) => {
    if (ctx.request.is('application/json') === false) {
      throw badRequest('Request body must be application/json');
    }
    try {
      await parser(ctx, async () => {});
    } catch (err) {
      throw bodyError(err, limit);
    }
    if (ctx.request.body === undefined) ctx.request.body = {};
    return next();
  };
}
