import { afterEach, describe, expect, it } from 'vitest';
import { HttpWebhookSender, signature } from '../../src/adapters/webhook/http-webhook-sender.js';
import { isRefusedAddress } from '../../src/adapters/webhook/refused-addresses.js';
import { DomainError } from '../../src/domain/index.js';
import { startReceiver } from '../support/webhook-receiver.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const hook = (url: string) => ({ url, secret: 'test secret' });
const now = new Date('2026-11-22T10:00:00.000Z');

/** Each refused range, by an address inside it, and the range's name. */
const REFUSED: [string, string][] = [
  ['127.0.0.1', 'loopback'],
  ['127.255.0.9', 'loopback'],
  ['10.1.2.3', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.254', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'cloud metadata (link-local)'],
  ['169.254.1.1', 'link-local'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['100.100.100.200', 'Alibaba metadata'],
  ['192.0.0.192', 'Oracle metadata'],
  ['0.0.0.0', 'this network'],
  ['224.0.0.1', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['198.18.0.1', 'benchmarking'],
  ['::1', 'IPv6 loopback'],
  ['::', 'unspecified'],
  ['fd00:ec2::254', 'AWS metadata (unique-local)'],
  ['fc00::1', 'unique-local'],
  ['fe80::1', 'IPv6 link-local'],
  ['ff02::1', 'IPv6 multicast'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
  ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata address'],
];

describe('refused addresses', () => {
  it.each(REFUSED)('refuses %s (%s)', (ip) => {
    expect(isRefusedAddress(ip)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows %s', (ip) => {
    expect(isRefusedAddress(ip)).toBe(false);
  });

  it('refuses what is not an address at all', () => {
    expect(isRefusedAddress('localhost')).toBe(true);
  });
});

describe('HttpWebhookSender', () => {
  it.each(REFUSED)('never connects to %s (%s), named by a host that resolves to it', async (ip) => {
    const sender = new HttpWebhookSender({ allowPrivate: false, resolve: async () => [{ address: ip, family: ip.includes(':') ? 6 : 4 }] });
    const result = await sender.send(hook('http://hooks.example.com/'), '{}', now);
    expect(result).toMatchObject({ error: expect.stringMatching(/^refused: hooks\.example\.com resolves to/) });
  });

  it('refuses a name that resolves to 127.0.0.1 (localhost, through the system resolver), where a receiver listens', async () => {
    const r = await startReceiver();
    cleanups.push(r.close);
    const sender = new HttpWebhookSender({ allowPrivate: false });
    expect(await sender.send(hook(`http://localhost:${r.port}/`), '{}', now)).toMatchObject({ error: expect.stringMatching(/^refused/) });
    expect(await sender.send(hook(`http://127.0.0.1:${r.port}/`), '{}', now)).toMatchObject({ error: expect.stringMatching(/^refused/) });
    expect(r.received).toHaveLength(0);
    // Allowed, the same receiver gets it.
    const allowed = new HttpWebhookSender({ allowPrivate: true });
    expect(await allowed.send(hook(`http://localhost:${r.port}/`), '{}', now)).toEqual({ status: 200 });
  });

  it('refuses a name one of whose addresses is refused, even if another is not', async () => {
    const sender = new HttpWebhookSender({
      allowPrivate: false,
      resolve: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.5', family: 4 },
      ],
    });
    expect(await sender.send(hook('http://hooks.example.com/'), '{}', now)).toMatchObject({ error: expect.stringContaining('10.0.0.5') });
  });

  it('connects to the address it checked, not to what the name resolves to later', async () => {
    const r = await startReceiver();
    cleanups.push(r.close);
    let lookups = 0;
    // The first answer is the one checked; any later lookup (the connection's own) would lead nowhere.
    const sender = new HttpWebhookSender({
      allowPrivate: true,
      resolve: async () => (lookups++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '192.0.2.1', family: 4 }]),
    });
    expect(await sender.send(hook(`http://receiver.invalid:${r.port}/`), '{"a":1}', now)).toEqual({ status: 200 });
    expect(lookups).toBe(1);
    expect(r.received[0]!.headers.host).toBe(`receiver.invalid:${r.port}`);
    expect(r.received[0]!.headers['coffer-signature']).toBe(signature('test secret', '{"a":1}', now));
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    const { createServer } = await import('node:http');
    const server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const port = (server.address() as { port: number }).port;
    const sender = new HttpWebhookSender({ allowPrivate: true, timeoutMs: 200 });
    expect(await sender.send(hook(`http://127.0.0.1:${port}/`), '{}', now)).toMatchObject({ error: expect.stringContaining('no answer') });
  });

  it('checkUrl refuses other schemes, credentials and refused literal addresses', () => {
    const sender = new HttpWebhookSender({ allowPrivate: false });
    for (const url of ['ftp://a.example/', 'https://u:p@a.example/', 'http://10.0.0.1/', 'http://[fd00:ec2::254]/', 'not a url', `https://a.example/${'x'.repeat(3000)}`]) {
      expect(() => sender.checkUrl(url), url).toThrow(DomainError);
    }
    expect(() => sender.checkUrl('https://hooks.example.com/x')).not.toThrow();
    expect(() => new HttpWebhookSender({ allowPrivate: true }).checkUrl('http://127.0.0.1:8080/')).not.toThrow();
  });
});
