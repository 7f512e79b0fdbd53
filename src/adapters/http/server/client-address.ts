import { isIP } from 'node:net';
import type { Context } from 'koa';

/**
 * The client address the throttle keys a request on. The socket peer is hop 0. Koa's proxy settings
 * (trust-proxy.ts) hand over the X-Forwarded-For entries the trusted proxies appended, one each (`ctx.ips`: none
 * without TRUST_PROXY); walking them from the end ends at the first hop no trusted proxy stands behind: the client.
 * Entries further left are whatever the client chose to send and are never read.
 */
export function clientAddress(ctx: Pick<Context, 'ips' | 'req'>): string {
  const client = clientIp(ctx);
  return client === null ? 'unknown' : throttleGroup(client);
}

/** The client's own address, found as clientAddress finds it, whole; null when the socket has none. */
export function clientIp(ctx: Pick<Context, 'ips' | 'req'>): string | null {
  let client = hostOf(ctx.req.socket.remoteAddress ?? '');
  if (client === null) return null;
  const hops = ctx.ips;
  for (let i = hops.length - 1; i >= 0; i--) {
    const host = hostOf(hops[i]!);
    // A proxy that wrote garbage vouches for nothing beyond itself: stay with the last address it did give.
    if (host === null) break;
    client = host;
  }
  return client;
}

/** The bare IP of `1.2.3.4`, `1.2.3.4:80`, `::1`, `[::1]:80` or `fe80::1%eth0`; null for anything else. */
function hostOf(entry: string): string | null {
  let host = entry;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(host);
  if (bracketed) host = bracketed[1] ?? '';
  else if (/^[\d.]+:\d+$/.test(host)) host = host.slice(0, host.indexOf(':'));
  host = host.replace(/%[\w.-]+$/, '');
  return isIP(host) === 0 ? null : host;
}

/**
 * One key per party that controls an address: an IPv4 address as is; an IPv6 address as its /56, the smallest
 * prefix ISPs commonly hand a single customer, who could otherwise rotate through 2^72 addresses. IPv4 written in
 * IPv6 (`::ffff:1.2.3.4`) is the IPv4 address.
 */
export function throttleGroup(ip: string): string {
  if (isIP(ip) === 4) return ip;
  const groups = ipv6Groups(ip);
  if (groups === null) return ip;
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) {
    return [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff].join('.');
  }
  return `${[g0, g1, g2, g3 & 0xff00].map((g) => g.toString(16)).join(':')}::/56`;
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a dotted IPv4 tail converted); null if malformed. */
function ipv6Groups(ip: string): number[] | null {
  if (isIP(ip) !== 6) return null;
  let text = ip.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const zeros = tail === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...new Array<number>(zeros).fill(0), ...right];
  return groups.length === 8 ? groups : null;
}
