import type { Middleware } from 'koa';
import { publicBase, shareUrl } from '../server/public-url.js';

type Json = unknown;

/**
 * Gives every item of an answer that has a share (`shareId`: files, folders, collections, pastes, at any depth, and
 * the body of a 409 naming an existing share) the `url` of that share's page, so a client never builds it itself.
 * Views are built per request, so they are amended in place.
 */
export function addShareUrls(value: Json, base: string): void {
  if (Array.isArray(value)) {
    for (const item of value) addShareUrls(item, base);
    return;
  }
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return;
  const record = value as Record<string, Json>;
  if (typeof record['shareId'] === 'string') record['url'] = shareUrl(base, record['shareId']);
  for (const key in record) {
    const child = record[key];
    if (child !== null && typeof child === 'object') addShareUrls(child, base);
  }
}

/** The middleware form, for every JSON answer under /api. */
export function shareUrls(publicUrl: string | null | undefined): Middleware {
  return async (ctx, next) => {
    await next();
    const body: Json = ctx.body;
    if (body !== null && typeof body === 'object' && ctx.path.startsWith('/api/')) {
      addShareUrls(body, publicBase(ctx, publicUrl));
    }
  };
}
