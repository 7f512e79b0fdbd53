import type { Context } from 'koa';
import type { LockedRequestView, PublicRequestView } from '../../../../application/requests/request-views.js';
import { escapeHtml, jsonForScript } from './render-page.js';
import { PAGE_DATA_ID } from './page-data.js';
import type { WebFile } from './web-assets.js';
import { PAGE_HEADERS } from './web-headers.js';

/**
 * What the server knows when it answers /r/{id}, handed to the page in a JSON data block as the share page's is:
 * `open` carries what the request asks for (whatever its state: the page says why a closed one takes nothing),
 * `locked` only its name and state until the password comes.
 */
export type RequestPageData =
  | { state: 'open'; request: PublicRequestView & { url: string } }
  | { state: 'locked'; request: LockedRequestView & { url: string } }
  | { state: 'not-found' }
  | { state: 'throttled'; retryAfter: number };

function titleOf(data: RequestPageData): { title: string; description: string } {
  switch (data.state) {
    case 'open':
      return { title: data.request.name, description: `${data.request.ownerName} asks you to send files` };
    case 'locked':
      return { title: 'Protected file request', description: 'This file request is protected by a password.' };
    case 'not-found':
      return { title: 'File request not found', description: 'This link does not lead to a file request.' };
    case 'throttled':
      return { title: 'Coffer', description: 'Too many requests.' };
  }
}

/** The built shell (request.html) with the title, a description, no indexing, and the page data; every value escaped. */
export function renderRequestPage(shell: string, data: RequestPageData): string {
  const { title, description } = titleOf(data);
  const head = [
    `<title>${escapeHtml(`${title} · Coffer`)}</title>`,
    '<meta name="robots" content="noindex, nofollow" />',
    `<meta name="description" content="${escapeHtml(description)}" />`,
  ].join('\n    ');
  const block = `<script type="application/json" id="${PAGE_DATA_ID}">${jsonForScript(data)}</script>`;
  return shell
    .replace(/<title>[^<]*<\/title>/, () => head)
    .replace('<div id="app"></div>', () => `<div id="app"></div>\n    ${block}`);
}

/** The page with the share page's headers and CSP, made for this request (never cached). */
export function sendRequestPage(ctx: Context, status: number, shell: WebFile, data: RequestPageData): void {
  ctx.set({ ...PAGE_HEADERS, 'Cache-Control': 'no-store' });
  ctx.set('Content-Type', 'text/html; charset=utf-8');
  ctx.status = status;
  ctx.body = Buffer.from(renderRequestPage(shell.body.toString('utf8'), data));
}
