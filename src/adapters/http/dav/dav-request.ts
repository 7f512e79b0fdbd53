import type { Context } from 'koa';
import type { Actor } from '../../../domain/index.js';
import type { Core } from '../../../application/contract.js';
import { lockPath } from './dav-path.js';
import type { LockGuard } from './lock-guard.js';
import { DavStatus } from './lock-guard.js';
import { MAX_XML_BYTES, parseXml, XmlError, type XmlElement } from './xml-read.js';
import { streamChunks } from '../uploads/stream-chunks.js';

/** Everything one WebDAV request works with. */
export interface DavRequest {
  ctx: Context;
  core: Core;
  actor: Actor;
  /** The decoded names of the request path. */
  names: string[];
  guard: LockGuard;
  maxUploadBytes: number;
}

export const pathOf = (req: DavRequest) => lockPath(req.names);

/**
 * The request's XML body, read whole up to MAX_XML_BYTES (413 past it) and parsed with the reader's limits (400 when
 * malformed or refused); null when there is none.
 */
export async function xmlBody(ctx: Context): Promise<XmlElement | null> {
  const declared = Number(ctx.get('Content-Length') || '0');
  if (declared > MAX_XML_BYTES) throw new DavStatus(413, 'The XML body is too large');
  if (!ctx.get('Content-Length') && !ctx.get('Transfer-Encoding')) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of streamChunks(ctx.req)) {
    size += chunk.byteLength;
    if (size > MAX_XML_BYTES) throw new DavStatus(413, 'The XML body is too large');
    chunks.push(Buffer.from(chunk));
  }
  if (size === 0) return null;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new DavStatus(400, 'The XML body is not UTF-8');
  }
  try {
    return parseXml(text);
  } catch (err) {
    if (err instanceof XmlError) throw new DavStatus(400, err.message);
    throw err;
  }
}

/** Whether the element is DAV:`local`. */
export const isDav = (element: XmlElement | undefined, local: string) => element?.ns === 'DAV:' && element.local === local;

/** The Depth header: 0, 1 or infinity (`fallback` when absent); 400 for anything else. */
export function depthOf(ctx: Context, fallback: '0' | '1' | 'infinity'): '0' | '1' | 'infinity' {
  const raw = (ctx.get('Depth') || fallback).trim().toLowerCase();
  if (raw === '0' || raw === '1' || raw === 'infinity') return raw;
  throw new DavStatus(400, 'Depth must be 0, 1 or infinity');
}

/** Sends a multistatus body (or any XML) at once. */
export function sendXml(ctx: Context, status: number, body: string): void {
  ctx.status = status;
  ctx.type = 'application/xml; charset=utf-8';
  ctx.body = `<?xml version="1.0" encoding="utf-8"?>\n${body}`;
}
