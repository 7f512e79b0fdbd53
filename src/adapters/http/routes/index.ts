import { adminRoutes } from './admin.js';
import { authRoutes } from './auth.js';
import { collectionRoutes } from './collections.js';
import { fileRoutes } from './files.js';
import { folderRoutes } from './folders.js';
import { healthRoutes } from './health.js';
import { pasteRoutes } from './pastes.js';
import { referenceRoutes } from './reference.js';
import type { AppRouter, RouteDeps } from './route-deps.js';
import { searchRoutes } from './search.js';
import { shareRoutes } from './shares.js';
import { tokenRoutes } from './tokens.js';
import { usageRoutes } from './usage.js';
import { webRoutes } from './web.js';

export function registerRoutes(router: AppRouter, deps: RouteDeps): void {
  for (const routes of [
    healthRoutes,
    referenceRoutes,
    authRoutes,
    tokenRoutes,
    fileRoutes,
    folderRoutes,
    collectionRoutes,
    pasteRoutes,
    shareRoutes,
    searchRoutes,
    usageRoutes,
    adminRoutes,
    webRoutes,
  ]) {
    routes(router, deps);
  }
}
