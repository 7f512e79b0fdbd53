/** The dashboard's own paths: the page reads the path and shows that view (see web/src/dash/routes.ts). */
export const DASHBOARD_PATHS = [
  '/',
  '/files/:folderId',
  '/shares',
  '/pastes',
  '/requests',
  '/collections',
  '/collections/:id',
  '/usage',
  '/tokens',
  '/account',
  '/activity',
  '/webhooks',
  '/admin',
];
