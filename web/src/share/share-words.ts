import { formatWait } from '../common/format.js';

/**
 * What went wrong on a share's page, in a sentence for the visitor: by the answer's status, never the server's
 * machine words (codes, field names). `retryAfter` is the wait of a 429, in seconds.
 */
export function shareProblem(status: number, retryAfter = 60): string {
  if (status === 0) return 'The server could not be reached. Check your connection and try again.';
  if (status === 401) return 'The password is needed again. Reload the page and enter it.';
  if (status === 404) return 'This is no longer part of the share: it may have been moved or deleted.';
  if (status === 410) return 'This share is no longer available: it expired, or it was opened as many times as its owner allowed.';
  if (status === 429) return `Too many requests from this network. Try again in ${formatWait(retryAfter)}.`;
  if (status >= 500) return 'Something went wrong on the server. Try again in a moment.';
  return 'This could not be loaded. Reload the page and try again.';
}
