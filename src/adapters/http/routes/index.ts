import { adminRoutes } from './admin.js';
import { assetRoutes } from './assets.js';
import { authRoutes } from './auth.js';
import { collectionRoutes } from './collections.js';
import { dashboardRoutes } from './dashboard.js';
import { fileRoutes } from './files.js';
import { folderRoutes } from './folders.js';
import { healthRoutes } from './health.js';
import { mfaRoutes } from './mfa.js';
import { pasteRoutes } from './pastes.js';
import { referenceRoutes } from './reference.js';
import type { AppRouter, RouteDeps } from './route-deps.js';
import { searchRoutes } from './search.js';
import { sharePageRoutes } from './share-page.js';
import { shareRoutes } from './shares.js';
import { tokenRoutes } from './tokens.js';
import { tusRoutes } from './tus.js';
import { usageRoutes } from './usage.js';

/**
 * Every route of the service, the API's and the pages', registered in this order from this one list: where a reader
 * finds which module handles a path. The front end's files and pages come last, and only with a front end (webDir).
 */
export function registerRoutes(router: AppRouter, deps: RouteDeps): void {
  for (const routes of [
    healthRoutes,
    referenceRoutes,
    authRoutes,
    mfaRoutes,
    tokenRoutes,
    fileRoutes,
    tusRoutes,
    folderRoutes,
    collectionRoutes,
    pasteRoutes,
    shareRoutes,
    searchRoutes,
    usageRoutes,
    adminRoutes,
    assetRoutes,
    sharePageRoutes,
    dashboardRoutes,
  ]) {
    routes(router, deps);
  }
}
