import { createHmac } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { badRequest } from '../../domain/index.js';
import type { AttemptResult, Webhook, WebhookSender } from '../../application/ports/index.js';
import { isRefusedAddress } from './refused-addresses.js';

export const WebhookSenderOptions = Symbol('WebhookSenderOptions');
export interface WebhookSenderOptions {
  /** WEBHOOK_ALLOW_PRIVATE=true: loopback, private and metadata addresses are allowed (tests, a trusted LAN). */
  allowPrivate: boolean;
  /** How long one attempt waits for the whole answer; 10 s. */
  timeoutMs?: number;
  /** Resolves a name to all its addresses (tests put a name of their own here). */
  resolve?: (host: string) => Promise<LookupAddress[]>;
}

const MAX_URL = 2048;
const TIMEOUT_MS = 10_000;

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed by the secret>`: what docs/API.md tells receivers to check. */
export function signature(secret: string, body: string, now: Date): string {
  const t = Math.floor(now.getTime() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

const systemResolve = (host: string) =>
  new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

/**
 * Deliveries over node's own http/https. The name is resolved here, every address it resolves to is checked, and the
 * connection goes to the checked address (the agent's `lookup` hands it over), so a name that changes between the
 * check and the connection (DNS rebinding) cannot lead elsewhere. Redirects are answers like any other (never
 * followed); the whole attempt is bounded.
 */
export class HttpWebhookSender implements WebhookSender {
  private readonly timeoutMs: number;
  private readonly resolve: (host: string) => Promise<LookupAddress[]>;

  constructor(private readonly options: WebhookSenderOptions) {
    this.timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
    this.resolve = options.resolve ?? systemResolve;
  }

  checkUrl(raw: string): void {
    const url = parseUrl(raw);
    if (!url) throw badRequest('url: must be an absolute http or https URL without credentials', { field: 'url' });
    const host = bareHost(url.hostname);
    if (!this.options.allowPrivate && isIP(host) !== 0 && isRefusedAddress(host)) {
      throw badRequest('url: this address is loopback, private, link-local or a metadata service', { field: 'url' });
    }
  }

  async send(webhook: Pick<Webhook, 'url' | 'secret'>, body: string, now: Date): Promise<AttemptResult> {
    const url = parseUrl(webhook.url);
    if (!url) return { error: 'not an http(s) URL' };
    const host = bareHost(url.hostname);
    let target: LookupAddress;
    try {
      const addresses = isIP(host) !== 0 ? [{ address: host, family: isIP(host) }] : await this.resolve(host);
      if (addresses.length === 0) return { error: `${host} resolves to no address` };
      const refused = addresses.find((a) => isRefusedAddress(a.address));
      if (refused && !this.options.allowPrivate) {
        return { error: `refused: ${host} resolves to ${refused.address}, a loopback, private, link-local or metadata address` };
      }
      target = addresses[0]!;
    } catch (err) {
      return { error: `cannot resolve ${host}: ${(err as Error).message}` };
    }
    return this.post(url, target, body, signature(webhook.secret, body, now));
  }

  private post(url: URL, target: LookupAddress, body: string, signed: string): Promise<AttemptResult> {
    // Every connection of this request goes to the address checked above, whatever the name resolves to now.
    const pinned: LookupFunction = (_host, opts, callback) => {
      if ((opts as { all?: boolean }).all) (callback as (e: null, a: LookupAddress[]) => void)(null, [target]);
      else callback(null, target.address, target.family);
    };
    const options: RequestOptions = {
      method: 'POST',
      lookup: pinned,
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
        'Coffer-Signature': signed,
        'User-Agent': 'Coffer-Webhook/1',
      },
      agent: false,
    };
    return new Promise<AttemptResult>((resolve) => {
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(url, options, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        res.on('error', (err) => resolve({ error: err.message }));
      });
      const timer = setTimeout(() => req.destroy(new Error(`no answer within ${this.timeoutMs / 1000} s`)), this.timeoutMs);
      req.on('error', (err) => resolve({ error: err.message }));
      req.on('close', () => clearTimeout(timer));
      req.end(body);
    });
  }
}

function parseUrl(raw: string): URL | null {
  if (raw.length > MAX_URL) return null;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.username !== '' || url.password !== '') return null;
    return url;
  } catch {
    return null;
  }
}

/** `[::1]` as URL writes an IPv6 host, without its brackets. */
const bareHost = (hostname: string) => (hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname);
