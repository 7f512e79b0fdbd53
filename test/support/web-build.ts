import { ensureWebBuilt } from '../../web/ensure-built.js';

/**
 * vitest globalSetup: the HTTP and browser tests serve web/dist, so it must be built from the sources under test,
 * not from whatever an earlier `npm install` left (a no-op when the sources' hash matches the build's).
 */
export default function buildWeb(): void {
  ensureWebBuilt();
}
