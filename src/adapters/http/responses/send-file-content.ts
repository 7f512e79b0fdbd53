import { Readable } from 'node:stream';
import type { Context } from 'koa';
import rangeParser from 'range-parser';
import type { FileContent } from '../../../application/contract.js';
import type { ByteRange } from '../../../application/ports/index.js';
import { contentDispositionOf } from './content-disposition.js';
import { countSent } from './sent-bytes.js';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const quoted = (etag: string) => (etag.startsWith('"') || etag.startsWith('W/"') ? etag : `"${etag}"`);

/** If-Range names the representation the client holds; a range of anything else would splice two versions. */
function rangeStillValid(ctx: Context, etag: string, lastModified: Date): boolean {
  const ifRange = ctx.get('If-Range');
  if (!ifRange) return true;
  if (ifRange.startsWith('"') || ifRange.startsWith('W/"')) return ifRange === etag;
  return Date.parse(ifRange) === seconds(lastModified) * 1000;
}

/**
 * RFC 9110 conditional GET, evaluated here rather than with ctx.fresh: that one ignores validators whenever the
 * request says `Cache-Control: no-cache`, which fetch() adds to every conditional request.
 */
function notModified(ctx: Context, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = ctx.get('If-None-Match');
  if (ifNoneMatch) {
    if (ifNoneMatch.trim() === '*') return true;
    return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
  }
  const since = Date.parse(ctx.get('If-Modified-Since'));
  return !Number.isNaN(since) && seconds(lastModified) * 1000 <= since;
}

/** The single byte range to serve, null for the whole file, or 'unsatisfiable'. Several ranges get the whole file. */
function requestedRange(ctx: Context, content: FileContent, etag: string): ByteRange | null | 'unsatisfiable' {
  const header = ctx.get('Range');
  if (!header || !rangeStillValid(ctx, etag, content.lastModified)) return null;
  const ranges = rangeParser(content.size, header, { combine: true });
  if (ranges === -1) return 'unsatisfiable';
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return null;
  const [range] = ranges;
  return range ? { start: range.start, end: range.end } : null;
}

/**
 * Serves a stored file's (or a paste's) bytes as a stream: validators, conditional GET (304), a single Range
 * (206/416), a safe Content-Disposition (RFC 6266 filename*), and a sandbox CSP so nothing served here can run as our
 * origin. The HTML pages we render ourselves are responses/pages/send-share-page.ts.
 */
export async function sendFileContent(ctx: Context, content: FileContent): Promise<void> {
  const etag = quoted(content.etag);
  ctx.set({
    'Content-Security-Policy': 'sandbox',
    'X-Content-Type-Options': 'nosniff',
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'private, no-cache',
    ETag: etag,
    'Last-Modified': content.lastModified.toUTCString(),
  });
  if (notModified(ctx, etag, content.lastModified)) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  const range = requestedRange(ctx, content, etag);
  if (range === 'unsatisfiable') {
    ctx.set('Content-Range', `bytes */${content.size}`);
    ctx.body = { error: 'bad_request', message: 'Range not satisfiable' };
    ctx.status = 416;
    return;
  }
  ctx.set({
    'Content-Type': content.charset ? `${content.mime}; charset=${content.charset}` : content.mime,
    'Content-Disposition': contentDispositionOf(content.name, content.disposition),
  });
  if (range) {
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${content.size}`);
  }
  if (ctx.method !== 'HEAD') {
    const bytes = await content.open(range ?? undefined);
    if (content.sent) countSent(ctx, content.sent.bind(content));
    ctx.body = bytes instanceof Readable ? bytes : Readable.from(bytes);
  }
  ctx.set('Content-Length', String(range ? range.end - range.start + 1 : content.size));
}
