import { formatSize } from '../common/format.js';
import type { OpenRequest } from './page-data.js';

/** Why a request takes nothing, in one sentence. */
export const STATE_WORDS: Record<string, string> = {
  closed: 'This request has been closed: it takes no more files.',
  expired: 'This request has expired: it takes no more files.',
  full: 'This request has received all the files it takes.',
};

/** What the request still takes, as short lines. */
export function allowances(request: OpenRequest): string[] {
  const lines: string[] = [];
  if (request.filesLeft !== null) lines.push(`${request.filesLeft} more ${request.filesLeft === 1 ? 'file' : 'files'}`);
  if (request.bytesLeft !== null) lines.push(`${formatSize(request.bytesLeft)} in all`);
  if (request.maxFileBytes !== null) lines.push(`at most ${formatSize(request.maxFileBytes)} per file`);
  lines.push(request.allowedTypes.length > 0 ? `only ${request.allowedTypes.join(', ')}` : 'any type of file');
  return lines;
}

interface Refusal {
  status: number;
  error?: string;
  message?: string;
}

/** One sentence for a refused file: the server's own when it sent one, else one by its status. */
export function refusalWords({ status, error, message }: Refusal): string {
  if (error === 'limit_reached') return 'The owner of this request has no room left for this file.';
  if (message) return message;
  switch (status) {
    case 401:
      return 'This request needs its password again: reload the page.';
    case 410:
      return 'This request takes no more files.';
    case 413:
      return 'This file is too large for this request.';
    case 415:
      return 'This request does not take this type of file.';
    case 429:
      return 'Too many uploads at once: try this file again in a moment.';
    case 0:
      return 'The connection was lost: try again to go on where it stopped.';
    default:
      return 'This file could not be sent.';
  }
}
