import type { Context } from 'koa';
import { z } from 'zod';
import { MAX_PAGE_SIZE, type PageRequest } from '../../../application/index.js';
import { badRequest } from '../../../domain/index.js';
import type { HttpOptions } from '../http-options.js';
import { publicBase } from '../server/public-url.js';
import { validationError } from '../validation.js';

const wholeNumber = `must be a whole number from 1 to ${MAX_PAGE_SIZE}`;

/**
 * `limit`: decimal digits only (no sign, exponent, leading zero or space), then the range. `cursor`: any text here; the
 * core owns its format and refuses what it did not write, with `field: "cursor"`.
 */
export const pageQuery = z.object({
  limit: z
    .string()
    .regex(/^[1-9][0-9]{0,6}$/, wholeNumber)
    .transform(Number)
    .refine((n) => n <= MAX_PAGE_SIZE, wholeNumber)
    .optional(),
  cursor: z.string().optional(),
});

/**
 * `limit` and `cursor` of a paged listing's query string. Other parameters are ignored, as on every route; a parameter
 * given twice is refused, since picking one of the two would be a guess.
 */
export function parsePage(ctx: Context): PageRequest {
  const { limit, cursor } = ctx.query;
  for (const [field, value] of [['limit', limit], ['cursor', cursor]] as const) {
    if (Array.isArray(value)) {
      throw badRequest(`${field}: must be given once`, { issues: [{ path: field, message: 'must be given once' }] });
    }
  }
  const result = pageQuery.safeParse({ limit, cursor });
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/**
 * When a next page exists, an RFC 8288 `Link: <…>; rel="next"` header: the listing's own path (a constant of the
 * route, never the request's path) under the public base every `url` uses, with the next cursor and the client's
 * `limit` when it named one.
 */
export function linkNext(
  ctx: Context,
  options: Pick<HttpOptions, 'publicUrl'>,
  path: string,
  page: PageRequest,
  nextCursor: string | null,
): void {
  if (nextCursor === null) return;
  const query = new URLSearchParams();
  if (page.limit !== undefined) query.set('limit', String(page.limit));
  query.set('cursor', nextCursor);
  ctx.set('Link', `<${publicBase(ctx, options.publicUrl)}${path}?${query}>; rel="next"`);
}
