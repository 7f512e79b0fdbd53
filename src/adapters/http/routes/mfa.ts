import QRCode from 'qrcode';
import { actorOf } from '../session/auth.js';
import { AUTH_JSON_LIMIT, jsonBody } from '../json-body.js';
import { setSessionCookie } from '../session/session-cookie.js';
import { mfaCodeBody, mfaLoginBody, parse, parseId, totpOffBody } from '../validation.js';
import type { AppRouter, RouteDeps } from './route-deps.js';

/**
 * Second factors: setting TOTP up and off, recovery codes, the second step of a sign-in, and an admin's reset. The
 * core checks that the caller holds a session (an API token is 403); the adapter only validates and draws the QR code.
 */
export function mfaRoutes(router: AppRouter, { core, auth, options }: RouteDeps): void {
  const body = jsonBody(AUTH_JSON_LIMIT);

  router.post('/api/auth/mfa/totp', auth.required, async (ctx) => {
    const setup = await core.startTotp.execute({ actor: actorOf(ctx) });
    const qrSvg = await QRCode.toString(setup.otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { ...setup, qrSvg };
  });

  router.post('/api/auth/mfa/totp/confirm', auth.required, body, async (ctx) => {
    const { code } = parse(mfaCodeBody, ctx.request.body);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await core.confirmTotp.execute({ actor: actorOf(ctx), code });
  });

  router.delete('/api/auth/mfa/totp', auth.required, body, async (ctx) => {
    const proof = parse(totpOffBody, ctx.request.body);
    await core.turnOffTotp.execute({ actor: actorOf(ctx), ...proof, client: auth.client(ctx) });
    ctx.status = 204;
  });

  router.post('/api/auth/mfa/recovery-codes', auth.required, body, async (ctx) => {
    const { code } = parse(mfaCodeBody, ctx.request.body);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await core.newRecoveryCodes.execute({ actor: actorOf(ctx), code, client: auth.client(ctx) });
  });

  router.post('/api/auth/login/mfa', body, async (ctx) => {
    const input = parse(mfaLoginBody, ctx.request.body);
    ctx.body = await core.loginMfa.execute({ ...input, client: auth.client(ctx) });
  });

  // The browser's second step: as POST /api/auth/session, the session goes into the HttpOnly cookie only.
  router.post('/api/auth/session/mfa', body, async (ctx) => {
    auth.assertOwnPage(ctx);
    const input = parse(mfaLoginBody, ctx.request.body);
    const { token } = await core.loginMfa.execute({ ...input, client: auth.client(ctx) });
    setSessionCookie(ctx, token, auth.secure(ctx), options.sessionCookieMaxAge ?? null);
    ctx.body = await core.getMe.execute({ actor: await core.authenticate.execute({ token }) });
  });

  router.delete('/api/admin/users/:id/mfa', auth.required, async (ctx) => {
    await core.resetUserMfa.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
    ctx.status = 204;
  });
}
