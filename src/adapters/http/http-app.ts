import Router from '@koa/router';
import { inject, injectable } from 'inversify';
import Koa from 'koa';
import { Core } from '../../application/contract.js';
import { Auth, type AuthState } from './session/auth.js';
import { errorMiddleware } from './responses/errors.js';
import { HttpOptions } from './http-options.js';
import { loadWebAssets, type WebAssets } from './responses/pages/web-assets.js';
import { registerRoutes } from './routes/index.js';
import { proxySettings } from './server/trust-proxy.js';
import { shareUrls } from './responses/share-urls.js';
import { davMiddleware } from './dav/dav-middleware.js';

// A client that goes away mid-download is routine, not a server fault.
const CLIENT_GONE = new Set(['ECONNRESET', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE']);

/**
 * API answers are about one caller (their files, their tokens, a share they unlocked): no cache, shared or private,
 * keeps them, unless the route chose its own policy (stored bytes revalidate; the reference page is public). The
 * same holds below a share's page (/s/{id}/...: its unlock, listings and their errors).
 */
const noStore: Koa.Middleware = async (ctx, next) => {
  await next();
  const personal = ctx.path.startsWith('/api/') || ctx.path.startsWith('/s/');
  if (personal && !ctx.response.get('Cache-Control')) ctx.set('Cache-Control', 'no-store');
};

/** The built front end, read once; a directory without a build is said once at start, and the API still serves. */
function frontEnd({ webDir, logger }: HttpOptions): WebAssets | null {
  if (webDir === undefined) return null;
  const web = loadWebAssets(webDir);
  if (!web) logger.warn({ dir: webDir }, 'the web front end is not built: run npm run build:web');
  return web;
}

/** The Koa application serving the whole API on top of the core. */
@injectable()
export class HttpApp {
  readonly koa: Koa;
  /** Its routes; the OpenAPI coverage test compares them with the document. */
  readonly router: Router<AuthState>;

  constructor(@inject(Core) core: Core, @inject(HttpOptions) options: HttpOptions) {
    const { logger } = options;
    const router = new Router<AuthState>();
    this.router = router;
    const auth = new Auth(core, options.publicUrl ?? null);
    registerRoutes(router, { core, auth, options, web: frontEnd(options) });

    this.koa = new Koa(proxySettings(options.trustProxy ?? 0));
    this.koa.use(async (ctx, next) => {
      const started = Date.now();
      await next();
      logger.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Date.now() - started }, 'request');
    });
    this.koa.use(noStore);
    this.koa.use(errorMiddleware(logger));
    this.koa.use(shareUrls(options.publicUrl));
    // WebDAV at /dav/ answers its own methods and errors before the API's router sees the request.
    this.koa.use(davMiddleware(core, options.maxUploadBytes));
    this.koa.use(router.routes());
    this.koa.use(router.allowedMethods());
    // Errors after the response has started (a failing download stream) arrive here instead of crashing.
    this.koa.on('error', (err: Error & { code?: string }, ctx?: Koa.Context) => {
      const where = { method: ctx?.method, path: ctx?.path };
      if (err.code && CLIENT_GONE.has(err.code)) logger.warn({ ...where, code: err.code }, 'client went away');
      else logger.error({ ...where, err }, 'response failed');
    });
  }

  callback(): ReturnType<Koa['callback']> {
    return this.koa.callback();
  }
}
