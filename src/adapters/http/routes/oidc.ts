import type { Context } from 'koa';
import { z } from 'zod';
import { isDomainError } from '../../../domain/index.js';
import { ssoFailureOf, type SsoFailure } from '../../../application/ports/index.js';
import { none, one, type Answer } from '../openapi/operation.js';
import { publicBase } from '../server/public-url.js';
import { actorOf } from '../session/auth.js';
import { setSessionCookie } from '../session/session-cookie.js';
import { clearSsoCookie, setSsoCookie, ssoCookie } from '../session/sso-cookie.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteTable } from './route-table.js';

const CALLBACK = '/api/auth/oidc/callback';

const startQuery = z.object({
  next: z.string().max(2048).optional().describe('Where to go afterwards: a path on this origin (`/files`); anything else is ignored'),
  intent: z.enum(['login', 'link']).optional().describe('`link`: attach the identity to the signed-in user (default `login`)'),
});

const callbackQuery = z.object({
  state: z.string().optional(),
  code: z.string().optional(),
  iss: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});

const redirect = (description: string, cookies: string): Answer[] => [
  { status: 302, description, headers: { Location: 'Where the browser goes', 'Set-Cookie': cookies } },
];

/** One value of the query, or null (absent, or given more than once: a guess either way). */
function single(ctx: Context, name: string): string | null {
  const value = ctx.query[name];
  return typeof value === 'string' ? value : null;
}

/**
 * Single sign-on through an OpenID provider. Start and callback are browser navigations, so they answer with
 * redirects only: a failure goes to the sign-in page (`/?ssoError=<reason>`, or Account for a link) with a reason the
 * page turns into a sentence. Nothing of the provider's answer is logged.
 */
export function oidcRoutes(routes: RouteTable, { core, auth, options }: RouteDeps): void {
  const base = (ctx: Context) => publicBase(ctx, options.publicUrl);
  const fail = (ctx: Context, reason: SsoFailure, intent: unknown) => {
    const page = intent === 'link' ? '/account' : '/';
    ctx.redirect(`${base(ctx)}${page}?ssoError=${reason}`);
  };
  const logged = (ctx: Context, err: unknown, step: string) => {
    const reason = ssoFailureOf(err);
    // The reason and the error's class only: the library's errors may carry the provider's answer.
    if (reason === 'failed') options.logger.error({ step, error: err instanceof Error ? err.name : typeof err }, 'single sign-on failed');
    else options.logger.info({ step, reason }, 'single sign-on refused');
    return reason;
  };

  routes.add(
    { method: 'get', path: '/api/auth/providers', tag: 'auth', summary: 'How people sign in here: the password form, and single sign-on (its label, whether the provider can be reached)', access: 'public', ok: one('Providers'), errors: [] },
    async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await core.getProviders.execute({});
    },
  );

  routes.add(
    { method: 'get', path: '/api/auth/oidc/start', tag: 'auth', summary: 'Start a single sign-on: a redirect to the provider (a browser navigation)', access: 'public', query: startQuery, ok: redirect('To the provider; on failure, to the sign-in page with `ssoError`', '`coffer_sso`: this browser\'s key to the sign-in, 10 minutes'), errors: [] },
    async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      const intent = single(ctx, 'intent') === 'link' ? 'link' : 'login';
      try {
        const query = startQuery.safeParse({ next: single(ctx, 'next') ?? undefined, intent });
        const actor = intent === 'link' ? await auth.optionalActor(ctx) : null;
        const { url, browserKey } = await core.startSso.execute({
          actor,
          next: query.success ? (query.data.next ?? null) : null,
          intent,
          redirectUri: `${base(ctx)}${CALLBACK}`,
        });
        setSsoCookie(ctx, browserKey, auth.secure(ctx));
        ctx.redirect(url);
      } catch (err) {
        fail(ctx, logged(ctx, err, 'start'), intent);
      }
    },
  );

  routes.add(
    { method: 'get', path: CALLBACK, tag: 'auth', summary: 'Where the provider sends the browser back: signs it in (the session cookie) or links the identity, then a redirect', access: 'public', query: callbackQuery, ok: redirect('To `next` (signed in, or linked); on failure, to the sign-in page or Account with `ssoError`', 'The session cookie on success; `coffer_sso` removed'), errors: [] },
    async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      // A HEAD (a link checker, a prefetch) only looks: it neither spends the state nor signs anyone in.
      if (ctx.method === 'HEAD') return ctx.redirect(`${base(ctx)}/`);
      const browserKey = ssoCookie(ctx);
      clearSsoCookie(ctx);
      try {
        const outcome = await core.finishSso.execute({ query: ctx.querystring, state: single(ctx, 'state'), browserKey });
        if (outcome.intent === 'login') {
          setSessionCookie(ctx, outcome.session.token, auth.secure(ctx), options.sessionCookieMaxAge ?? null);
        }
        ctx.redirect(`${base(ctx)}${outcome.next}`);
      } catch (err) {
        const intent = isDomainError(err) ? err.details['intent'] : undefined;
        fail(ctx, logged(ctx, err, 'callback'), intent);
      }
    },
  );

  routes.add(
    { method: 'delete', path: '/api/auth/oidc/link', tag: 'auth', summary: 'Unlink your single sign-on identity (409 while it is your only way to sign in)', access: 'session', ok: none, errors: [401, 403, 409] },
    auth.required,
    async (ctx) => {
      await core.unlinkSso.execute({ actor: actorOf(ctx) });
      ctx.status = 204;
    },
  );
}
