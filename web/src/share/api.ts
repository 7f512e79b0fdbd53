import type { ErrorBody } from '../common/error-body.js';
import type { components } from '../common/openapi-schema.gen.js';

/** A share as the API answers it, its page's `url` included (a type generated from the OpenAPI document). */
export type ShareView = components['schemas']['Share'];
/** A share as its page shows it: the API's Share, whose `url` is that page's address. */
export type PageShare = ShareView;

/**
 * What the server wrote into the page's data block (src/adapters/http/responses/pages/page-data.ts): no API answer,
 * so no generated type names it. test/http/page-data-type.test.ts keeps this type and the server's in step.
 */
export type PageData =
  | { state: 'open'; share: PageShare; folderId?: string }
  | { state: 'locked'; folderId?: string }
  | { state: 'not-found' }
  | { state: 'gone' }
  | { state: 'throttled'; retryAfter: number };

/** An error answer's body; `{}` when it is not JSON. */
export async function errorBody(res: Response): Promise<ErrorBody> {
  try {
    return (await res.json()) as ErrorBody;
  } catch {
    return {};
  }
}

/** Seconds to wait from a 429: Retry-After, else the body's retryAfter, else a minute. */
export function retryAfterOf(res: Response, body: ErrorBody): number {
  const header = Number(res.headers.get('Retry-After'));
  return Number.isFinite(header) && header > 0 ? header : (body.retryAfter ?? 60);
}
