import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may never point unless WEBHOOK_ALLOW_PRIVATE=true: this host, private networks, link-local and
 * unique-local addresses, cloud metadata services, and what is not a unicast address on the internet at all.
 */
const REFUSED = new BlockList();
const V4: [string, number, string][] = [
  ['0.0.0.0', 8, 'this network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared address space (carrier-grade NAT; Alibaba Cloud metadata 100.100.100.200)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata 169.254.169.254)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments (Oracle Cloud metadata 192.0.0.192)'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved, broadcast'],
];
const V6: [string, number, string][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['fc00::', 7, 'unique-local (AWS metadata fd00:ec2::254)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
  ['100::', 64, 'discard'],
];
for (const [net, prefix] of V4) REFUSED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of V6) REFUSED.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible or NAT64 (64:ff9b::/96) address. */
function embeddedV4(ip: string): string | null {
  const lower = ip.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
}

/** Whether a webhook may not connect to this address; anything that is not an IP address is refused too. */
export function isRefusedAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return REFUSED.check(ip, 'ipv4');
  if (family !== 6) return true;
  const v4 = embeddedV4(ip);
  if (v4 !== null) return REFUSED.check(v4, 'ipv4');
  return REFUSED.check(ip, 'ipv6');
}
