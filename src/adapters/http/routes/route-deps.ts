import type Router from '@koa/router';
import type { Core } from '../../../application/contract.js';
import type { HttpOptions } from '../http-options.js';
import type { WebAssets } from '../responses/pages/web-assets.js';
import type { Auth, AuthState } from '../session/auth.js';

export type AppRouter = Router<AuthState>;

export interface RouteDeps {
  core: Core;
  auth: Auth;
  options: HttpOptions;
  /**
   * The built front end, read once at start from `options.webDir`; null when that directory holds no build (the
   * pages then answer unavailable). Without `webDir` no page or asset route is registered at all.
   */
  web: WebAssets | null;
}
