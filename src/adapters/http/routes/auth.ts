import type { Context } from 'koa';
import { actorOf } from '../session/auth.js';
import { AUTH_JSON_LIMIT, jsonBody } from '../json-body.js';
import { clearSessionCookie, sessionCookie, setSessionCookie } from '../session/session-cookie.js';
import { browserSessionBody, credentialsBody, parse, passwordChangeBody } from '../validation.js';
import type { AppRouter, RouteDeps } from './route-deps.js';

/** Login, registration and password changes read small bodies only (AUTH_JSON_LIMIT, 16 KiB). */
export function authRoutes(router: AppRouter, { core, auth, options }: RouteDeps): void {
  const body = jsonBody(AUTH_JSON_LIMIT);

  router.post('/api/auth/login', body, async (ctx) => {
    const credentials = parse(credentialsBody, ctx.request.body);
    ctx.body = await core.login.execute({ ...credentials, client: auth.client(ctx) });
  });

  router.post('/api/auth/register', body, async (ctx) => {
    ctx.body = await core.register.execute(parse(credentialsBody, ctx.request.body));
    ctx.status = 201;
  });

  // The browser's sign-in: the session token goes into the HttpOnly cookie only, so no page script ever holds it.
  router.post('/api/auth/session', body, async (ctx) => {
    auth.assertOwnPage(ctx);
    const { register, ...credentials } = parse(browserSessionBody, ctx.request.body);
    const outcome = register
      ? await core.register.execute(credentials)
      : await core.login.execute({ ...credentials, client: auth.client(ctx) });
    // The password was right but a second factor is due: no cookie yet; POST /api/auth/session/mfa finishes.
    if ('mfaRequired' in outcome) {
      ctx.body = outcome;
      return;
    }
    const { token } = outcome;
    setSessionCookie(ctx, token, auth.secure(ctx), options.sessionCookieMaxAge ?? null);
    ctx.body = await core.getMe.execute({ actor: await core.authenticate.execute({ token }) });
    ctx.status = register ? 201 : 200;
  });

  // Who the browser is signed in as, or null: a signed-out visitor is an answer here, not an error. The persistence
  // comes with it, signed in or not, so every page (the sign-in page too) can say when nothing will be kept.
  router.get('/api/auth/session', async (ctx) => {
    const actor = await auth.optionalActor(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      user: actor?.via === 'session' ? await core.getMe.execute({ actor }) : null,
      registration: options.registrationOpen === true,
      persistence: options.persistence,
    };
  });

  const logout = (everywhere: boolean) => async (ctx: Context) => {
    await core.logout.execute({ actor: actorOf(ctx), everywhere });
    if (sessionCookie(ctx) !== null) clearSessionCookie(ctx);
    ctx.status = 204;
  };
  router.post('/api/auth/logout', auth.required, logout(false));
  router.post('/api/auth/logout/everywhere', auth.required, logout(true));

  router.post('/api/auth/password', auth.required, body, async (ctx) => {
    const change = parse(passwordChangeBody, ctx.request.body);
    await core.changePassword.execute({ actor: actorOf(ctx), ...change, client: auth.client(ctx) });
    ctx.status = 204;
  });

  router.get('/api/auth/me', auth.required, async (ctx) => {
    ctx.body = await core.getMe.execute({ actor: actorOf(ctx) });
  });
}
