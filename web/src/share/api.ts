import type { ShareView } from '../../../src/application/views.js';
import type { PageData, PageShare } from '../../../src/adapters/http/web/page-data.js';
import type { ErrorBody } from '../common/error-body.js';

export type { PageData, PageShare, ShareView };

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
