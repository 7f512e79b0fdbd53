import { dirname } from 'node:path';
import type { Ports } from '../../src/application/index.js';

/** One request and its answer, as the client saw it. */
export interface Exchange {
  method: string;
  path: string;
  status: number;
  /** Every response header as `name: value` lines. */
  head: string;
  text: string;
}

// Shorter strings could occur by chance inside ids or tokens; every real secret here is longer.
const MIN_SECRET_LENGTH = 8;

/** The only answers that may carry a token: the one moment its secret is handed out. */
const ISSUES_TOKENS = /^POST \/api\/(auth\/login|auth\/login\/mfa|auth\/passkey\/login|auth\/register|auth\/session|auth\/session\/mfa|auth\/session\/passkey|token|token\/sharex)$/;
/** The browser session's cookie, as a request sends it or a response sets it. */
const SESSION_COOKIE = /(?:^|[;,\s])(?:__Host-)?coffer_session=([A-Za-z0-9_-]+)/g;

/**
 * Watches everything a test sends and receives, and finds responses that carry a secret: a password or share
 * password that was sent, a password hash, a token or its hash, a blob key, the blob store's directory. A token is
 * allowed only in the answer that issues it.
 */
export class SecretScan {
  readonly exchanges: Exchange[] = [];
  private readonly secrets = new Map<string, string>();
  private readonly tokens = new Set<string>();

  constructor(private readonly ports: Ports) {}

  addSecret(kind: string, value: string | null | undefined): void {
    if (value && value.length >= MIN_SECRET_LENGTH) this.secrets.set(value, kind);
  }

  addToken(token: string | null | undefined): void {
    if (!token) return;
    this.tokens.add(token);
    this.addSecret('token hash', this.ports.secrets.hash(token));
  }

  /** Passwords in JSON bodies and share-password headers, and the token of an Authorization header. */
  noteRequest(headers: Record<string, string>, json: unknown): void {
    for (const [name, value] of Object.entries(headers)) {
      if (name.toLowerCase() === 'x-share-password') this.addSecret('share password', value);
      if (name.toLowerCase() === 'authorization') this.addToken(value.split(' ')[1]);
      if (name.toLowerCase() === 'cookie') for (const [, token] of value.matchAll(SESSION_COOKIE)) this.addToken(token);
    }
    for (const field of ['password', 'currentPassword', 'newPassword']) {
      const password: unknown = json && typeof json === 'object' ? (json as Record<string, unknown>)[field] : undefined;
      if (typeof password === 'string') this.addSecret('password', password);
    }
  }

  noteResponse(exchange: Exchange, body: unknown): void {
    this.exchanges.push(exchange);
    for (const [, token] of exchange.head.matchAll(SESSION_COOKIE)) this.addToken(token);
    // An mfaToken is a credential too: handed out by a login only, never to be seen anywhere else.
    for (const field of ['token', 'mfaToken']) {
      const token = body && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined;
      if (typeof token === 'string') this.addToken(token);
    }
  }

  /** A blob store that reports every key it hands out, so deleted blobs are scanned for too. */
  recordingBlobs(store: Ports['blobs']): Ports['blobs'] {
    return new Proxy(store, {
      get: (target, key) => {
        const value: unknown = Reflect.get(target, key, target);
        if ((key !== 'write' && key !== 'join') || typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          const written = (await value.apply(target, args)) as { key: string; size: number };
          this.addSecret('blob key', written.key);
          return written;
        };
      },
    });
  }

  /** One line per leak: which secret, in the answer to which request. */
  async leaks(): Promise<string[]> {
    await this.collectStored();
    const found: string[] = [];
    for (const { method, path, status, head, text } of this.exchanges) {
      const where = `${method} ${path} (${status})`;
      const answer = `${head}\n${text}`;
      for (const [value, kind] of this.secrets) if (answer.includes(value)) found.push(`${kind} in ${where}`);
      if (ISSUES_TOKENS.test(`${method} ${path}`)) continue;
      for (const token of this.tokens) if (answer.includes(token)) found.push(`token in ${where}`);
    }
    return found;
  }

  /** Every secret the scan looks for, by kind (after reading storage), so a test can show the scan is not empty. */
  async known(): Promise<Map<string, string[]>> {
    await this.collectStored();
    const byKind = new Map<string, string[]>([['token', [...this.tokens]]]);
    for (const [value, kind] of this.secrets) byKind.set(kind, [...(byKind.get(kind) ?? []), value]);
    return byKind;
  }

  /** What only storage knows: password hashes (users and shares) and the blob store's directory. */
  private async collectStored(): Promise<void> {
    for (const user of await this.ports.users.list()) {
      this.addSecret('password hash', user.passwordHash);
      for (const share of await this.ports.shares.listByOwner(user.id)) this.addSecret('share hash', share.passwordHash);
    }
    const blobsDir = (this.ports.blobs as unknown as { blobsDir?: unknown }).blobsDir;
    if (typeof blobsDir === 'string') this.addSecret('storage path', dirname(blobsDir));
  }
}
