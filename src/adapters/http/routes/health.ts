import type { AppRouter, RouteDeps } from './route-deps.js';

export function healthRoutes(router: AppRouter, { options }: RouteDeps): void {
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok', persistence: options.persistence };
  });
}
