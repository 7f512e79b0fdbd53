import type { ActivityAddressMode } from './activity.js';

/**
 * The part of an address an event keeps. `truncated`: the IPv4 /24 or the IPv6 /48 the address lies in, written as
 * a network (`203.0.113.0/24`, `2001:db8:1::/48`), enough to tell one network from another and not one person from
 * their neighbours; an IPv4 address written in IPv6 (`::ffff:1.2.3.4`) is IPv4.
 */
export function keptAddress(ip: string | null, mode: ActivityAddressMode): string | null {
  if (ip === null || mode === 'none') return null;
  const v4 = ipv4Of(ip);
  if (mode === 'full') return v4 ?? ip.toLowerCase();
  if (v4 !== null) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  const groups = ipv6Groups(ip);
  if (groups === null) return null;
  return `${groups.slice(0, 3).map((g) => g.toString(16)).join(':')}::/48`;
}

function ipv4Of(ip: string): string | null {
  const plain = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (plain) return plain.slice(1).every((n) => Number(n) <= 255) ? ip : null;
  const mapped = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i.exec(ip);
  if (mapped) return ipv4Of(mapped[1]!);
  const groups = ipv6Groups(ip);
  if (groups && groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [g6 = 0, g7 = 0] = groups.slice(6);
    return [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff].join('.');
  }
  return null;
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a dotted IPv4 tail converted); null if malformed. */
export function ipv6Groups(ip: string): number[] | null {
  let text = ip.toLowerCase().replace(/%.*$/, '');
  if (!/^[0-9a-f:.]+$/.test(text) || !text.includes(':')) return null;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    if ([a, b, c, d].some((n) => n > 255)) return null;
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const left = parse(halves[0] ?? '');
  const right = halves.length === 2 ? parse(halves[1] ?? '') : [];
  if ([...left, ...right].some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  const zeros = halves.length === 2 ? 8 - left.length - right.length : 0;
  if (zeros < 0) return null;
  const groups = [...left.map((g) => parseInt(g, 16)), ...new Array<number>(zeros).fill(0), ...right.map((g) => parseInt(g, 16))];
  return groups.length === 8 ? groups : null;
}

/** Order matters: Edge and Opera say Chrome too, Chrome says Safari too. */
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\b(?:Headless)?Chrome\/|\bCriOS\/|\bChromium\//, 'Chrome'],
  [/\bSafari\//, 'Safari'],
  [/^curl\//, 'curl'],
  [/^Wget\//, 'Wget'],
  [/\bpython-requests\/|\bPython-urllib\//, 'Python'],
  [/^node\b|\bundici\b/i, 'Node'],
];
const SYSTEMS: [RegExp, string][] = [
  [/\bAndroid\b/, 'Android'],
  [/\biPhone\b|\biPad\b|\biOS\b/, 'iOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bLinux\b/, 'Linux'],
];

const first = (table: [RegExp, string][], agent: string) => table.find(([pattern]) => pattern.test(agent))?.[1] ?? null;

/** A browser family and an operating system named by a User-Agent, or null for what it does not name plainly. */
export function describeAgent(agent: string): { browser: string | null; os: string | null } {
  return { browser: first(BROWSERS, agent), os: first(SYSTEMS, agent) };
}
