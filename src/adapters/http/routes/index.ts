import type { Core } from '../../../application/contract.js';
import { openApiDocument } from '../openapi/document.js';
import { Auth } from '../session/auth.js';
import { activityRoutes } from './activity.js';
import { adminRoutes } from './admin.js';
import { webhookRoutes } from './webhooks.js';
import { assetRoutes } from './assets.js';
import { authRoutes } from './auth.js';
import { collectionRoutes } from './collections.js';
import { dashboardRoutes } from './dashboard.js';
import { fileRoutes, uploadRoutes } from './files.js';
import { folderRoutes } from './folders.js';
import { healthRoutes } from './health.js';
import { mfaRoutes } from './mfa.js';
import { passkeyRoutes } from './passkeys.js';
import { oidcRoutes } from './oidc.js';
import { pasteRoutes } from './pastes.js';
import { requestPageRoutes } from './request-page.js';
import { requestRoutes } from './requests.js';
import { referenceRoutes } from './reference.js';
import type { AppRouter, RouteDeps } from './route-deps.js';
import { RouteTable } from './route-table.js';
import { searchRoutes } from './search.js';
import { sharePageRoutes } from './share-page.js';
import { shareRoutes } from './shares.js';
import { tokenRoutes } from './tokens.js';
import { tusRoutes } from './tus.js';
import { usageRoutes } from './usage.js';

/**
 * Every route of the service, the API's and the pages', registered in this order from this one list: where a reader
 * finds which module handles a path. Each route declares its OpenAPI operation beside its handler (route-table.ts);
 * the document lists them in this order. The front end's files and pages come last, and only with a front end
 * (webDir).
 */
const ROUTES = [
  healthRoutes,
  referenceRoutes,
  authRoutes,
  mfaRoutes,
  passkeyRoutes,
  oidcRoutes,
  tokenRoutes,
  uploadRoutes,
  tusRoutes,
  fileRoutes,
  folderRoutes,
  collectionRoutes,
  pasteRoutes,
  shareRoutes,
  requestRoutes,
  activityRoutes,
  webhookRoutes,
  searchRoutes,
  usageRoutes,
  adminRoutes,
  assetRoutes,
  sharePageRoutes,
  requestPageRoutes,
  dashboardRoutes,
];

/** Registers every route on the router; the table it returns holds their operations. */
export function registerRoutes(router: AppRouter | null, deps: RouteDeps): RouteTable {
  const table = new RouteTable(router);
  for (const routes of ROUTES) routes(table, deps);
  return table;
}

export interface DocumentOptions {
  /** Whether the web front end's routes are served (they are only when it is built). */
  web: boolean;
}

/**
 * The OpenAPI 3.1 document the service serves at /api/openapi.json, without a service: the routes register on no
 * router, so only their operations are recorded. Registering calls nothing on the core, so none is needed.
 */
export function buildOpenApiDocument({ web }: DocumentOptions): Record<string, unknown> {
  const core = {} as Core;
  const options = { maxUploadBytes: 1, persistence: 'memory', logger: SILENT, ...(web ? { webDir: 'web/dist' } : {}) } as const;
  return openApiDocument(registerRoutes(null, { core, auth: new Auth(core), options, web: null }).operations);
}

const SILENT = { info: () => {}, warn: () => {}, error: () => {} };
