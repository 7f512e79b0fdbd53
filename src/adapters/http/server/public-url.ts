import type { Context } from 'koa';
import { trustedHops } from './trust-proxy.js';

const HOST = /^(?:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;
const PROTOCOLS = new Set(['http', 'https']);

/**
 * The entry of an X-Forwarded-* header that the trusted proxies vouch for: as with X-Forwarded-For, each proxy that
 * appends adds one entry at the end, so with `hops` proxies it is the `hops`-th from the end (the first, when fewer
 * proxies wrote one). Undefined without trusted proxies: the header is then whatever the client chose to send.
 * (Koa's own ctx.host and ctx.protocol read the first entry, which behind appending proxies is the client's.)
 */
function forwarded(header: string, hops: number): string | undefined {
  if (hops <= 0 || header === '') return undefined;
  const entries = header.split(',').map((entry) => entry.trim());
  return entries[Math.max(0, entries.length - hops)];
}

/** The socket's own address, for the rare request without a usable Host header (HTTP/1.0). */
function localHost(ctx: Context): string {
  const { localAddress = '127.0.0.1', localPort } = ctx.req.socket;
  const host = localAddress.includes(':') ? `[${localAddress.replace(/%.*$/, '')}]` : localAddress;
  return localPort === undefined ? host : `${host}:${localPort}`;
}

/**
 * The base of every `url` the service hands out: PUBLIC_URL when set; otherwise the origin the request was sent to,
 * its scheme and host taken from X-Forwarded-Proto and X-Forwarded-Host only behind trusted proxies (TRUST_PROXY),
 * and from the connection and the Host header otherwise. A forwarded value that is not a scheme or a host is ignored.
 */
export function publicBase(ctx: Context, publicUrl: string | null | undefined): string {
  if (publicUrl) return publicUrl;
  const hops = trustedHops(ctx);
  const proto = forwarded(ctx.get('X-Forwarded-Proto'), hops)?.toLowerCase();
  const host = forwarded(ctx.get('X-Forwarded-Host'), hops);
  const encrypted = 'encrypted' in ctx.req.socket && ctx.req.socket.encrypted === true;
  const scheme = proto && PROTOCOLS.has(proto) ? proto : encrypted ? 'https' : 'http';
  const ownHost = ctx.get('Host');
  const authority = host && HOST.test(host) ? host : HOST.test(ownHost) ? ownHost : localHost(ctx);
  return `${scheme}://${authority.toLowerCase()}`;
}

/** The address of a share's page: what a person opens, and what a client hands on. */
export function shareUrl(base: string, shareId: string): string {
  return `${base}/s/${encodeURIComponent(shareId)}`;
}

/** The address of a file request's page: what an uploader opens. */
export function requestUrl(base: string, requestId: string): string {
  return `${base}/r/${encodeURIComponent(requestId)}`;
}

/** The page of one folder inside a folder share: below the share's page, where its unlock grant goes too. */
export function folderPageUrl(sharePageUrl: string, folderId: string): string {
  return `${sharePageUrl}/f/${encodeURIComponent(folderId)}`;
}
