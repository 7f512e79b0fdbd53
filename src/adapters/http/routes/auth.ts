import type { Context } from 'koa';
import { none, one } from '../openapi/operation.js';
import { actorOf } from '../session/auth.js';
import { AUTH_JSON_LIMIT, jsonBody } from '../json-body.js';
import { clearSessionCookie, sessionCookie, setSessionCookie } from '../session/session-cookie.js';
import { browserSessionBody, credentialsBody, meUpdateBody, parse, passwordChangeBody } from '../validation.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteTable } from './route-table.js';

/** Login, registration and password changes read small bodies only (AUTH_JSON_LIMIT, 16 KiB). */
export function authRoutes(routes: RouteTable, { core, auth, options }: RouteDeps): void {
  const body = jsonBody(AUTH_JSON_LIMIT);

  routes.add(
    { method: 'post', path: '/api/auth/login', tag: 'auth', summary: 'Log in: a session token, or MfaRequired for a user with a second factor', access: 'public', json: credentialsBody, ok: one('LoginAnswer'), errors: [400, 401, 403, 413, 429] },
    body,
    async (ctx) => {
      const credentials = parse(credentialsBody, ctx.request.body);
      ctx.body = await core.login.execute({ ...credentials, client: auth.client(ctx) });
    },
  );

  routes.add(
    { method: 'post', path: '/api/auth/register', tag: 'auth', summary: 'Create an account (REGISTRATION=open)', access: 'public', json: credentialsBody, ok: one('LoginResult', 201), errors: [400, 403, 409, 413, 429] },
    body,
    async (ctx) => {
      ctx.body = await core.register.execute(parse(credentialsBody, ctx.request.body));
      ctx.status = 201;
    },
  );

  const logout = (everywhere: boolean) => async (ctx: Context) => {
    await core.logout.execute({ actor: actorOf(ctx), everywhere });
    if (sessionCookie(ctx) !== null) clearSessionCookie(ctx);
    ctx.status = 204;
  };
  routes.add(
    { method: 'post', path: '/api/auth/logout', tag: 'auth', summary: 'Revoke the session token presented (and clear the browser session\'s cookie)', access: 'session', ok: none, errors: [401, 403] },
    auth.required,
    logout(false),
  );
  routes.add(
    { method: 'post', path: '/api/auth/logout/everywhere', tag: 'auth', summary: 'Revoke every session of the user; API tokens stay', access: 'session', ok: none, errors: [401, 403] },
    auth.required,
    logout(true),
  );

  // The browser's sign-in: the session token goes into the HttpOnly cookie only, so no page script ever holds it.
  routes.add(
    { method: 'post', path: '/api/auth/session', tag: 'auth', summary: 'Sign a browser in (or up, register: true): the session goes into an HttpOnly cookie, never into the answer', access: 'public', json: browserSessionBody, ok: [{ status: 200, description: 'Me (the cookie is set), or MfaRequired (no cookie yet)', schema: 'SessionAnswer' }, ...one('Me', 201, 'Me (registered)')], errors: [400, 401, 403, 409, 413, 429] },
    body,
    async (ctx) => {
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
    },
  );

  // Who the browser is signed in as, or null: a signed-out visitor is an answer here, not an error. The persistence
  // comes with it, signed in or not, so every page (the sign-in page too) can say when nothing will be kept.
  routes.add(
    { method: 'get', path: '/api/auth/session', tag: 'auth', summary: 'Who the browser is signed in as (null when no one)', access: 'public', ok: one('Session'), errors: [401] },
    async (ctx) => {
      const actor = await auth.optionalActor(ctx);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = {
        user: actor?.via === 'session' ? await core.getMe.execute({ actor }) : null,
        registration: options.registrationOpen === true,
        persistence: options.persistence,
      };
    },
  );

  routes.add(
    { method: 'post', path: '/api/auth/password', tag: 'auth', summary: 'Change your own password; ends your other sessions', access: 'session', json: passwordChangeBody, ok: none, errors: [400, 401, 403, 409, 413, 429] },
    auth.required,
    body,
    async (ctx) => {
      const change = parse(passwordChangeBody, ctx.request.body);
      await core.changePassword.execute({ actor: actorOf(ctx), ...change, client: auth.client(ctx) });
      ctx.status = 204;
    },
  );

  routes.add(
    { method: 'get', path: '/api/auth/me', tag: 'auth', summary: 'The user of the token', access: 'session', ok: one('Me'), errors: [401, 403] },
    auth.required,
    async (ctx) => {
      const actor = actorOf(ctx);
      ctx.body = { ...(await core.getMe.execute({ actor })), ...(await core.getEmail.execute({ actor })) };
    },
  );

  routes.add(
    { method: 'patch', path: '/api/auth/me', tag: 'auth', summary: 'Set the address mail notices go to (null: none)', access: 'session', json: meUpdateBody, ok: one('Me'), errors: [400, 401, 403, 413] },
    auth.required,
    jsonBody(),
    async (ctx) => {
      const actor = actorOf(ctx);
      const { email } = parse(meUpdateBody, ctx.request.body);
      await core.setEmail.execute({ actor, email });
      ctx.body = { ...(await core.getMe.execute({ actor })), ...(await core.getEmail.execute({ actor })) };
    },
  );
}
