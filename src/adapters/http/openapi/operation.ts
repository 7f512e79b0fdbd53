import type { z } from 'zod';

/**
 * What a route declares beside its handler (routes/route-table.ts): the operation the OpenAPI document describes.
 * The document (document.ts) is assembled from the operations of the routes registered, in their order.
 */

/** Who may call a route: the token types it accepts (`x-token-types`), or none. */
export type Access =
  /** No token needed; one that is sent must be valid. */
  | 'public'
  /** A session token (login or register). */
  | 'session'
  /** A session token or an uploader (API) token. */
  | 'session-or-uploader'
  /** An admin's session token. */
  | 'admin'
  /** A session token, or instead of one `X-Share-Id` (and `X-Share-Password`) of a share that reaches the item. */
  | 'session-or-share'
  /** A share's page and what it loads: public; a protected share wants the grant cookie its unlock set. */
  | 'share-page'
  /** A file request's page and what it sends: public; a protected request wants the grant cookie its unlock set. */
  | 'request-page';

/** A response: a component's name, bytes of a stored item, an HTML page, or nothing; and the headers it carries. */
export type Answer = {
  status: number;
  description: string;
  schema?: string;
  body?: 'bytes' | 'html' | 'asset' | 'zip';
  /** Response headers worth naming, with what they carry. */
  headers?: Record<string, string>;
};

/** A request header an operation reads (beyond Authorization and the share headers). */
export interface RequestHeader {
  name: string;
  description: string;
  required?: true;
  integer?: true;
}

export interface Operation {
  method: 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete' | 'options';
  /** OpenAPI's template: `{id}` where the router has `:id`. */
  path: string;
  tag: string;
  summary: string;
  access: Access;
  /** The query parameters a route validates: adding one to a route is one schema in its operation. */
  query?: z.ZodObject;
  json?: z.ZodType;
  multipart?: z.ZodObject;
  /** A raw body of this media type (tus appends). */
  bytes?: string;
  headers?: RequestHeader[];
  ok: Answer[];
  /** Error statuses, all answered in the one error shape. */
  errors: number[];
  /** Headers every error answer of the operation carries too. */
  errorHeaders?: Record<string, string>;
}

/** Answers several routes share. */
export const BYTES_OK: Answer[] = [
  { status: 200, description: 'The whole content', body: 'bytes' },
  { status: 206, description: 'One range of the content (`Content-Range`)', body: 'bytes' },
  { status: 304, description: 'Not modified (`If-None-Match` / `If-Modified-Since`)' },
];
/** One JSON answer of a component (`Name[]`: a list of them). */
export const one = (schema: string, status = 200, description = schema): Answer[] => [{ status, description, schema }];
export const none: Answer[] = [{ status: 204, description: 'Done; no body' }];
/** The errors of a route on something the caller owns. */
export const owned = [400, 401, 403, 404];
/** The errors of a read that a share may make instead of a token. */
export const read = [400, 401, 403, 404, 410, 429];
