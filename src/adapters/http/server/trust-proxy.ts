import type { Context } from 'koa';

/**
 * TRUST_PROXY as Koa's proxy settings, the one place it is decided which forwarded headers count: 0 (`false`) reads
 * none; N (`true` is 1) believes N reverse proxies, each of which appended one entry to X-Forwarded-For, so Koa's
 * `ctx.ips` holds the last N entries (`maxIpsCount`), the ones those proxies wrote.
 */
export function proxySettings(trustProxy: number): { proxy: boolean; maxIpsCount: number } {
  return { proxy: trustProxy > 0, maxIpsCount: trustProxy > 0 ? trustProxy : 0 };
}

/** How many reverse proxies the app believes (its proxy settings, from TRUST_PROXY); 0: none. */
export function trustedHops(ctx: Pick<Context, 'app'>): number {
  return ctx.app.proxy ? ctx.app.maxIpsCount : 0;
}
