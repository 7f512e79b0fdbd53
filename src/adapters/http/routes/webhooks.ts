import { none, one, owned } from '../openapi/operation.js';
import { actorOf } from '../session/auth.js';
import { jsonBody } from '../json-body.js';
import { parse, parseId, webhookCreateBody, webhookUpdateBody } from '../validation.js';
import type { RouteDeps } from './route-deps.js';
import type { RouteTable } from './route-table.js';

/** Webhooks, from a session only (an API token is forbidden by the core). */
export function webhookRoutes(routes: RouteTable, { core, auth }: RouteDeps): void {
  routes.add(
    { method: 'post', path: '/api/webhook', tag: 'webhooks', summary: 'Create a webhook (its secret is shown only here)', access: 'session', json: webhookCreateBody, ok: one('CreatedWebhook', 201), errors: [400, 401, 403, 413] },
    auth.required,
    jsonBody(),
    async (ctx) => {
      const input = parse(webhookCreateBody, ctx.request.body);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await core.createWebhook.execute({ actor: actorOf(ctx), ...input });
      ctx.status = 201;
    },
  );
  routes.add(
    { method: 'get', path: '/api/webhook', tag: 'webhooks', summary: 'Your webhooks (at most 10)', access: 'session', ok: one('Webhook[]'), errors: [401, 403] },
    auth.required,
    async (ctx) => {
      ctx.body = await core.listWebhooks.execute({ actor: actorOf(ctx) });
    },
  );
  routes.add(
    { method: 'get', path: '/api/webhook/{id}', tag: 'webhooks', summary: 'A webhook', access: 'session', ok: one('Webhook'), errors: owned },
    auth.required,
    async (ctx) => {
      ctx.body = await core.getWebhook.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
    },
  );
  routes.add(
    { method: 'patch', path: '/api/webhook/{id}', tag: 'webhooks', summary: 'Change a webhook, or turn a disabled one back on', access: 'session', json: webhookUpdateBody, ok: one('Webhook'), errors: [...owned, 413] },
    auth.required,
    jsonBody(),
    async (ctx) => {
      const id = parseId(ctx.params.id);
      const changes = parse(webhookUpdateBody, ctx.request.body);
      ctx.body = await core.updateWebhook.execute({ actor: actorOf(ctx), id, ...changes });
    },
  );
  routes.add(
    { method: 'delete', path: '/api/webhook/{id}', tag: 'webhooks', summary: 'Delete a webhook and its deliveries', access: 'session', ok: none, errors: owned },
    auth.required,
    async (ctx) => {
      await core.deleteWebhook.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
      ctx.status = 204;
    },
  );
  routes.add(
    { method: 'post', path: '/api/webhook/{id}/test', tag: 'webhooks', summary: 'Queue a signed `ping` event for the webhook', access: 'session', ok: one('WebhookDelivery', 202, 'The queued delivery'), errors: owned },
    auth.required,
    async (ctx) => {
      ctx.body = await core.testWebhook.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
      ctx.status = 202;
    },
  );
  routes.add(
    { method: 'get', path: '/api/webhook/{id}/deliveries', tag: 'webhooks', summary: 'The webhook\'s last 100 deliveries, newest first', access: 'session', ok: one('WebhookDelivery[]'), errors: owned },
    auth.required,
    async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await core.listDeliveries.execute({ actor: actorOf(ctx), id: parseId(ctx.params.id) });
    },
  );
}
