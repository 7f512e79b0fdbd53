import Router from '@koa/router';
import Koa from 'koa';

/** The framework baseline: one Koa + @koa/router route answering a body like Coffer's share view, nothing else. */
const port = Number(process.env.PORT);
const host = process.env.HOST ?? '127.0.0.1';
const share = JSON.parse(process.env.SHARE_BODY ?? '{}') as Record<string, unknown>;
let views = 0;

const router = new Router();
router.get('/health', (ctx) => {
  ctx.body = { status: 'ok' };
});
router.get('/api/share/:id', (ctx) => {
  ctx.body = { ...share, id: ctx.params.id, views: ++views };
});

const app = new Koa();
app.use(router.routes());
app.use(router.allowedMethods());
const server = app.listen(port, host);
process.once('SIGTERM', () => server.close(() => process.exit(0)));
