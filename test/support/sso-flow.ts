import { expect } from 'vitest';
import { checkAnswer } from './openapi-check.js';

/** The cookies of one origin, as a browser keeps them (name → value; Max-Age=0 or an empty value removes). */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const gone = value === '' || attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (gone) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** A browser as the flow needs it: Coffer's cookies and the provider's, kept apart. */
export interface SsoBrowser {
  coffer: CookieJar;
  provider: CookieJar;
}

export const newBrowser = (): SsoBrowser => ({ coffer: new CookieJar(), provider: new CookieJar() });

/** One request without following redirects, carrying the jar's cookies and keeping what it sets. */
export async function visit(jar: CookieJar, url: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Response> {
  const headers = { ...init.headers, ...(jar.cookies.size > 0 ? { cookie: jar.header() } : {}) };
  const res = await fetch(url, { ...init, headers, redirect: 'manual' });
  jar.take(res);
  return res;
}

/** A navigation to a Coffer route: what the browser sends for a click on one of Coffer's own pages. */
async function cofferVisit(browser: SsoBrowser, url: string): Promise<Response> {
  const res = await visit(browser.coffer, url, {
    headers: { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
  });
  checkAnswer('GET', new URL(url).pathname, res.status, undefined);
  return res;
}

const location = (res: Response, base: string) => new URL(res.headers.get('location') ?? '', base).href;

/** GET /api/auth/oidc/start: answers where Coffer sends the browser (the provider, or back with ssoError). */
export async function startSignIn(browser: SsoBrowser, coffer: string, query = ''): Promise<string> {
  const res = await cofferVisit(browser, `${coffer}/api/auth/oidc/start${query}`);
  expect(res.status).toBe(302);
  return location(res, coffer);
}

/**
 * At the provider: follows its redirects, signs in as `login` on its form (or cancels), and answers the callback
 * URL it sends the browser to.
 */
export async function atProvider(browser: SsoBrowser, authorizationUrl: string, login: string | { cancel: true }): Promise<string> {
  const { origin } = new URL(authorizationUrl);
  let res = await visit(browser.provider, authorizationUrl);
  for (let hops = 0; hops < 10; hops++) {
    const next = location(res, origin);
    if (!next.startsWith(origin)) return next;
    const interaction = /\/interaction\/([^/?]+)$/.exec(new URL(next).pathname);
    if (interaction) {
      res =
        typeof login === 'string'
          ? await visit(browser.provider, next, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: new URLSearchParams({ prompt: 'login', login, password: 'anything' }).toString(),
            })
          : await visit(browser.provider, `${next}/abort`);
    } else {
      res = await visit(browser.provider, next);
    }
    expect([302, 303]).toContain(res.status);
  }
  throw new Error('the provider kept redirecting');
}

export interface Landing {
  status: number;
  /** Where Coffer sent the browser. */
  location: string;
  /** The session token of the cookie set, if one was. */
  session: string | null;
}

/** The provider's answer delivered to Coffer's callback (any instance's: `coffer` replaces the URL's origin). */
export async function deliver(browser: SsoBrowser, callbackUrl: string, coffer?: string): Promise<Landing> {
  const url = new URL(callbackUrl);
  const target = coffer ? `${coffer}${url.pathname}${url.search}` : callbackUrl;
  const before = browser.coffer.cookies.get('coffer_session');
  const res = await cofferVisit(browser, target);
  const session = browser.coffer.cookies.get('coffer_session');
  return { status: res.status, location: location(res, target), session: session !== before ? (session ?? null) : null };
}

/** The whole sign-in: start at Coffer, sign in at the provider as `login`, come back. */
export async function ssoSignIn(browser: SsoBrowser, coffer: string, login: string, query = ''): Promise<Landing> {
  const authorization = await startSignIn(browser, coffer, query);
  return deliver(browser, await atProvider(browser, authorization, login));
}
