import { brotliCompressSync, constants } from 'node:zlib';
import type { Context } from 'koa';
import type { PageData } from './page-data.js';
import { renderSharePage } from './render-page.js';
import { acceptedEncoding } from './send-web-file.js';
import type { WebFile } from './web-assets.js';
import { PAGE_HEADERS } from './web-headers.js';

// Below this the page is the shell plus a few tags: compressing it per request costs more than the bytes it saves.
const COMPRESS_FROM = 4096;

/**
 * A share's HTML page, rendered from the built shell: made for this request (it carries the share's state and card),
 * so never cached or revalidated; a large one (a long paste) is compressed with a fast brotli setting. The stored
 * bytes a share hands out are responses/send-file-content.ts.
 */
export function sendSharePage(ctx: Context, status: number, shell: WebFile, data: PageData, pageUrl: string): void {
  const html = Buffer.from(renderSharePage(shell.body.toString('utf8'), data, pageUrl));
  ctx.set({ ...PAGE_HEADERS, 'Cache-Control': 'no-store', Vary: 'Accept-Encoding' });
  ctx.set('Content-Type', 'text/html; charset=utf-8');
  ctx.status = status;
  const encoding = html.length >= COMPRESS_FROM ? acceptedEncoding(ctx.get('Accept-Encoding')) : null;
  if (encoding === 'br') {
    ctx.set('Content-Encoding', 'br');
    ctx.body = brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
  } else {
    ctx.body = html;
  }
}
