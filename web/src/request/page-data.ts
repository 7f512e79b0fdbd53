import type { components } from '../common/openapi-schema.gen.js';

export type PublicRequest = components['schemas']['PublicRequest'];
export type OpenRequest = Extract<PublicRequest, { ownerName: string }>;

/** What the server wrote into the page (responses/pages/request-page.ts): the page needs no request to start. */
export type RequestPageData =
  | { state: 'open'; request: OpenRequest & { url: string } }
  | { state: 'locked'; request: { name: string; protected: true; state: string; url: string } }
  | { state: 'not-found' }
  | { state: 'throttled'; retryAfter: number };

export function readPageData(): RequestPageData {
  const block = document.getElementById('page-data');
  try {
    return JSON.parse(block?.textContent ?? '') as RequestPageData;
  } catch {
    return { state: 'not-found' };
  }
}

/** The request's id, from the page's own address `/r/{id}`. */
export const requestIdOf = (path: string): string => decodeURIComponent(path.split('/')[2] ?? '');
