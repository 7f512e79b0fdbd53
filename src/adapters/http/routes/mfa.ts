import type { Context } from 'koa';
import QRCode from 'qrcode';
import { none, one, owned } from '../openapi/operation.js';
import { actorOf } from '../session/auth.js';
import { AUTH_JSON_LIMIT, jsonBody } from '../json-body.js';
import { relyingParty } from '../server/relying-party.js';
import { setSessionCookie } from '../session/session-cookie.js';
import { mfaCodeBody, mfaLoginBody, parse, parseId, totpOffBody } from '../validation.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteTable } from './route-table.js';

/**
 * Second factors: setting TOTP up and off, recovery codes, the second step of a sign-in, and an admin's reset. The
 * core checks that the caller holds a session (an API token is 403); the adapter only validates and draws the QR code.
 */
export function mfaRoutes(routes: RouteTable, { core, auth, options }: RouteDeps): void {
  const body = jsonBody(AUTH_JSON_LIMIT);

  routes.add(
    { method: 'post', path: '/api/auth/mfa/totp', tag: 'auth', summary: 'Set up TOTP: a new key, pending until confirmed (409 while TOTP is on)', access: 'session', ok: one('TotpSetup'), errors: [401, 403, 409] },
    auth.required,
    async (ctx) => {
      const setup = await core.startTotp.execute({ actor: actorOf(ctx) });
      const qrSvg = await QRCode.toString(setup.otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { ...setup, qrSvg };
    },
  );

  routes.add(
    { method: 'post', path: '/api/auth/mfa/totp/confirm', tag: 'auth', summary: 'Turn TOTP on with a code of the pending key: 10 recovery codes, shown once; ends your other sessions', access: 'session', json: mfaCodeBody, ok: one('RecoveryCodes'), errors: [400, 401, 403, 409, 413] },
    auth.required, body,
    async (ctx) => {
      const { code } = parse(mfaCodeBody, ctx.request.body);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await core.confirmTotp.execute({ actor: actorOf(ctx), code });
    },
  );

  routes.add(
    { method: 'delete', path: '/api/auth/mfa/totp', tag: 'auth', summary: 'Turn TOTP off (and its recovery codes): the password and a TOTP or recovery code', access: 'session', json: totpOffBody, ok: none, errors: [400, 401, 403, 409, 413, 429] },
    auth.required, body,
    async (ctx) => {
      const proof = parse(totpOffBody, ctx.request.body);
      await core.turnOffTotp.execute({ actor: actorOf(ctx), ...proof, client: auth.client(ctx) });
      ctx.status = 204;
    },
  );

  routes.add(
    { method: 'post', path: '/api/auth/mfa/recovery-codes', tag: 'auth', summary: '10 new recovery codes for a TOTP or recovery code; the old ones stop working', access: 'session', json: mfaCodeBody, ok: one('RecoveryCodes'), errors: [400, 401, 403, 409, 413, 429] },
    auth.required, body,
    async (ctx) => {
      const { code } = parse(mfaCodeBody, ctx.request.body);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await core.newRecoveryCodes.execute({ actor: actorOf(ctx), code, client: auth.client(ctx) });
    },
  );

  // A passkey's answer is checked against the relying party of this request; a code needs none.
  const mfaAnswer = (ctx: Context) => {
    const input = parse(mfaLoginBody, ctx.request.body);
    const rp = input.passkey === undefined ? undefined : relyingParty(ctx, options.publicUrl);
    return core.loginMfa.execute({ ...input, rp, client: auth.client(ctx) });
  };

  routes.add(
    { method: 'post', path: '/api/auth/login/mfa', tag: 'auth', summary: 'Finish a login with its mfaToken and a TOTP or recovery code, or a passkey: a session token', access: 'public', json: mfaLoginBody, ok: one('LoginResult'), errors: [400, 401, 409, 413, 429] },
    body,
    async (ctx) => {
      ctx.body = await mfaAnswer(ctx);
    },
  );

  // The browser's second step: as POST /api/auth/session, the session goes into the HttpOnly cookie only.
  routes.add(
    { method: 'post', path: '/api/auth/session/mfa', tag: 'auth', summary: 'Finish a browser sign-in with its mfaToken and a code or a passkey: the session goes into the HttpOnly cookie', access: 'public', json: mfaLoginBody, ok: one('Me'), errors: [400, 401, 403, 409, 413, 429] },
    body,
    async (ctx) => {
      auth.assertOwnPage(ctx);
      const { token } = await mfaAnswer(ctx);
      setSessionCookie(ctx, token, auth.secure(ctx), options.sessionCookieMaxAge ?? null);
      ctx.body = await core.getMe.execute({ actor: await core.authenticate.execute({ token }) });
    },
  );

  routes.add(
    { method: 'delete', path: '/api/admin/users/{id}/mfa', tag: 'admin', summary: 'Turn every second factor of a user off', access: 'admin', ok: none, errors: owned },
    auth.required,
    async (ctx) => {
      await core.resetUserMfa.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
      ctx.status = 204;
    },
  );
}
