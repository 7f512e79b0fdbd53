import type { Context } from 'koa';
import { none, one, owned } from '../openapi/operation.js';
import { actorOf } from '../session/auth.js';
import { AUTH_JSON_LIMIT, jsonBody } from '../json-body.js';
import { relyingParty } from '../server/relying-party.js';
import { setSessionCookie } from '../session/session-cookie.js';
import {
  mfaOptionsBody,
  parse,
  parseId,
  passkeyCreateBody,
  passkeyLoginBody,
  passkeyRenameBody,
} from '../validation.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteTable } from './route-table.js';

/**
 * Passkeys (WebAuthn): registering and managing them from a session, signing in with one alone, and the options of a
 * sign-in's second step. The relying party is the public base's (PUBLIC_URL, or the request's origin); the
 * ceremonies' checks are the core's (through the WebAuthn port).
 */
export function passkeyRoutes(routes: RouteTable, { core, auth, options }: RouteDeps): void {
  const body = jsonBody(AUTH_JSON_LIMIT);
  const rp = (ctx: Context) => relyingParty(ctx, options.publicUrl);
  // A challenge is answerable once; no cache may keep options.
  const fresh = (ctx: Context) => ctx.set('Cache-Control', 'no-store');

  routes.add(
    { method: 'post', path: '/api/auth/passkeys/options', tag: 'auth', summary: 'Options to register a passkey (navigator.credentials.create); answerable once within 5 minutes', access: 'session', ok: one('PasskeyCreationOptions'), errors: [401, 403, 409] },
    auth.required,
    async (ctx) => {
      const made = await core.passkeyRegistrationOptions.execute({ actor: actorOf(ctx), rp: rp(ctx) });
      fresh(ctx);
      ctx.body = made;
    },
  );

  routes.add(
    { method: 'post', path: '/api/auth/passkeys', tag: 'auth', summary: 'Register the passkey that answered the options; ends your other sessions', access: 'session', json: passkeyCreateBody, ok: one('Passkey', 201), errors: [400, 401, 403, 409, 413] },
    auth.required, body,
    async (ctx) => {
      const { name, response } = parse(passkeyCreateBody, ctx.request.body);
      ctx.body = await core.addPasskey.execute({ actor: actorOf(ctx), rp: rp(ctx), name, response });
      ctx.status = 201;
    },
  );

  routes.add(
    { method: 'get', path: '/api/auth/passkeys', tag: 'auth', summary: 'Your passkeys, oldest first (at most 20)', access: 'session', ok: one('Passkey[]'), errors: [401, 403] },
    auth.required,
    async (ctx) => {
      ctx.body = await core.listPasskeys.execute({ actor: actorOf(ctx) });
    },
  );

  routes.add(
    { method: 'patch', path: '/api/auth/passkeys/{id}', tag: 'auth', summary: 'Rename a passkey', access: 'session', json: passkeyRenameBody, ok: one('Passkey'), errors: [...owned, 413] },
    auth.required, body,
    async (ctx) => {
      const { name } = parse(passkeyRenameBody, ctx.request.body);
      ctx.body = await core.renamePasskey.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id), name });
    },
  );

  routes.add(
    { method: 'delete', path: '/api/auth/passkeys/{id}', tag: 'auth', summary: 'Remove a passkey', access: 'session', ok: none, errors: owned },
    auth.required,
    async (ctx) => {
      await core.removePasskey.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
      ctx.status = 204;
    },
  );

  routes.add(
    { method: 'post', path: '/api/auth/passkey/options', tag: 'auth', summary: 'Options to sign in with a passkey alone (navigator.credentials.get); answerable once within 5 minutes', access: 'public', ok: one('PasskeyRequestOptions'), errors: [409, 429] },
    async (ctx) => {
      const made = await core.passkeyLoginOptions.execute({ rp: rp(ctx), client: auth.client(ctx) });
      fresh(ctx);
      ctx.body = made;
    },
  );

  routes.add(
    { method: 'post', path: '/api/auth/passkey/login', tag: 'auth', summary: 'Sign in with a passkey alone: a session token, as a login', access: 'public', json: passkeyLoginBody, ok: one('LoginResult'), errors: [400, 401, 409, 413, 429] },
    body,
    async (ctx) => {
      const { response } = parse(passkeyLoginBody, ctx.request.body);
      ctx.body = await core.loginPasskey.execute({ response, rp: rp(ctx), client: auth.client(ctx) });
    },
  );

  // The browser's passkey sign-in: as POST /api/auth/session, the session goes into the HttpOnly cookie only.
  routes.add(
    { method: 'post', path: '/api/auth/session/passkey', tag: 'auth', summary: 'Sign a browser in with a passkey alone: the session goes into the HttpOnly cookie', access: 'public', json: passkeyLoginBody, ok: one('Me'), errors: [400, 401, 403, 409, 413, 429] },
    body,
    async (ctx) => {
      auth.assertOwnPage(ctx);
      const { response } = parse(passkeyLoginBody, ctx.request.body);
      const { token } = await core.loginPasskey.execute({ response, rp: rp(ctx), client: auth.client(ctx) });
      setSessionCookie(ctx, token, auth.secure(ctx), options.sessionCookieMaxAge ?? null);
      ctx.body = await core.getMe.execute({ actor: await core.authenticate.execute({ token }) });
    },
  );

  routes.add(
    { method: 'post', path: '/api/auth/login/mfa/options', tag: 'auth', summary: "Options to answer a sign-in's second step with one of the user's passkeys", access: 'public', json: mfaOptionsBody, ok: one('PasskeyRequestOptions'), errors: [400, 401, 409, 413] },
    body,
    async (ctx) => {
      const { mfaToken } = parse(mfaOptionsBody, ctx.request.body);
      const made = await core.mfaPasskeyOptions.execute({ mfaToken, rp: rp(ctx) });
      fresh(ctx);
      ctx.body = made;
    },
  );
}
