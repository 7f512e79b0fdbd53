import type { ShareView } from '../../../application/views.js';

/** A share as its page shows it: the API's view plus its page address. */
export type PageShare = ShareView & { url: string };

/**
 * What the server already knows when it answers /s/{id}, handed to the page in the HTML (a JSON data block), so
 * the page needs no second request to learn it and the answer's status matches what the page says.
 */
export type PageData =
  | { state: 'open'; share: PageShare }
  | { state: 'locked' }
  | { state: 'not-found' }
  | { state: 'gone' }
  | { state: 'throttled'; retryAfter: number };

/** The id of the data block in the page. */
export const PAGE_DATA_ID = 'page-data';
