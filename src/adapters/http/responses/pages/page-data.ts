import type { ShareView } from '../../../../application/views.js';

/** A share as its page shows it: the API's view plus its page address. */
export type PageShare = ShareView & { url: string };

/**
 * What the server already knows when it answers /s/{id}, handed to the page in the HTML (a JSON data block), so
 * the page needs no second request to learn it and the answer's status matches what the page says. `folderId` is
 * the folder a folder's own page (/s/{id}/f/{folderId}) shows: on an open share the server has checked that the
 * share reaches it; a locked page cannot tell before the password, so the page checks once it is unlocked.
 */
export type PageData =
  | { state: 'open'; share: PageShare; folderId?: string }
  | { state: 'locked'; folderId?: string }
  | { state: 'not-found' }
  | { state: 'gone' }
  | { state: 'throttled'; retryAfter: number };

/** The id of the data block in the page. */
export const PAGE_DATA_ID = 'page-data';
