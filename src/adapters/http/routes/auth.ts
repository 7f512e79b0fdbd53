import { actorOf } from '../auth.js';
import { AUTH_JSON_LIMIT, jsonBody } from '../json-body.js';
import { credentialsBody, parse, passwordChangeBody } from '../validation.js';
import type { AppRouter, RouteDeps } from './route-deps.js';

/** Login, registration and password changes read small bodies only (AUTH_JSON_LIMIT, 16 KiB). */
export function authRoutes(router: AppRouter, { core, auth }: RouteDeps): void {
  const body = jsonBody(AUTH_JSON_LIMIT);

  router.post('/api/auth/login', body, async (ctx) => {
    const credentials = parse(credentialsBody, ctx.request.body);
    ctx.body = await core.login.execute({ ...credentials, client: auth.client(ctx) });
  });

  router.post('/api/auth/register', body, async (ctx) => {
    ctx.body = await core.register.execute(parse(credentialsBody, ctx.request.body));
    ctx.status = 201;
  });

  router.post('/api/auth/logout', auth.required, async (ctx) => {
    await core.logout.execute({ actor: actorOf(ctx) });
    ctx.status = 204;
  });

  router.post('/api/auth/password', auth.required, body, async (ctx) => {
    const change = parse(passwordChangeBody, ctx.request.body);
    await core.changePassword.execute({ actor: actorOf(ctx), ...change, client: auth.client(ctx) });
    ctx.status = 204;
  });

  router.get('/api/auth/me', auth.required, async (ctx) => {
    ctx.body = await core.getMe.execute({ actor: actorOf(ctx) });
  });
}
