import type Router from '@koa/router';
import type { Core } from '../../../application/contract.js';
import type { Auth, AuthState } from '../session/auth.js';
import type { HttpOptions } from '../http-options.js';

export type AppRouter = Router<AuthState>;

export interface RouteDeps {
  core: Core;
  auth: Auth;
  options: HttpOptions;
}
