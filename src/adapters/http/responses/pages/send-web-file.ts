import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Context } from 'koa';
import type { WebFile } from './web-assets.js';

type Encoding = 'br' | 'gzip';

/** Compressed bodies, made on first demand and kept: the files never change while the process runs. */
const compressed = new WeakMap<WebFile, Map<Encoding, Buffer | null>>();

/**
 * Brotli's best quality for the small files of a first visit; a lighter one above this size, where quality 11 would
 * hold the event loop for over a second (pdf.js's 1 MB worker: 1.6 s at 11, 80 ms at 9, 12% larger).
 */
const BEST_QUALITY_MAX_BYTES = 256 * 1024;
const brotliQuality = (file: WebFile) => (file.body.length <= BEST_QUALITY_MAX_BYTES ? 11 : 9);

function encodedBody(file: WebFile, encoding: Encoding): Buffer | null {
  let byEncoding = compressed.get(file);
  if (!byEncoding) compressed.set(file, (byEncoding = new Map()));
  if (!byEncoding.has(encoding)) {
    const body =
      encoding === 'br'
        ? brotliCompressSync(file.body, { params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality(file) } })
        : gzipSync(file.body, { level: 9 });
    byEncoding.set(encoding, body.length < file.body.length ? body : null);
  }
  return byEncoding.get(encoding) ?? null;
}

/** The client's accepted encodings with q > 0 (RFC 9110 12.5.3); brotli first when both are welcome. */
export function acceptedEncoding(header: string): Encoding | null {
  const accepted = new Set<string>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

function matches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** A built file from memory: a strong ETag per encoding, conditional GET (304), compression when it pays. */
export function sendWebFile(ctx: Context, file: WebFile, headers: Record<string, string>): void {
  const encoding = file.compressible ? acceptedEncoding(ctx.get('Accept-Encoding')) : null;
  const body = encoding ? encodedBody(file, encoding) : null;
  const etag = body ? `"${file.digest}-${encoding}"` : `"${file.digest}"`;
  ctx.set(headers);
  ctx.set({ ETag: etag, Vary: 'Accept-Encoding' });
  if (matches(ctx.get('If-None-Match'), etag)) {
    ctx.status = 304;
    return;
  }
  ctx.set('Content-Type', file.type);
  if (body) ctx.set('Content-Encoding', encoding as Encoding);
  ctx.status = 200;
  ctx.body = body ?? file.body;
}
