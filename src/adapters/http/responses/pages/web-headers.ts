/**
 * The policy of every HTML page. Scripts and styles come only from our own hashed files (no inline script, no
 * eval); the page talks only to its own API; it frames nothing, cannot be framed, cannot change its base URL, and
 * cannot submit a form natively (the password form is sent by fetch, so no password can end up in a URL). Workers
 * come from our own files too: pdf.js's, for PDF previews. Trusted Types make every string-to-HTML sink (innerHTML
 * and friends) throw, so a name or a paste can only ever become text; the policies allowed:
 * `coffer-pdf-worker`, vouches for the built PDF worker's address and nothing else (web/src/common/pdf/pdf-engine.ts);
 * `coffer-download-worker` likewise for the share page's service worker (web/src/share/e2e-worker-client.ts).
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "media-src 'self'",
  "worker-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types coffer-pdf-worker coffer-download-worker",
].join('; ');

const COMMON = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * HTML: never stored by any cache (a share's page holds its state; the dashboard's shell is what a signed-in browser
 * loads, and a new build names new assets), never framed, no referrer (its URL names a share).
 */
export const PAGE_HEADERS: Record<string, string> = {
  ...COMMON,
  'Content-Security-Policy': PAGE_CSP,
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Scripts, styles and images: a file opened on its own (an SVG) runs nothing. */
export const ASSET_HEADERS: Record<string, string> = {
  ...COMMON,
  'Content-Security-Policy': "default-src 'none'; sandbox",
};

/** The share page's service worker (web/src/share/download-worker.ts), which decrypts end-to-end encrypted files. */
export const DOWNLOAD_WORKER = 'download-worker.js';

/**
 * Its policy is the worker's own: it imports our built modules and fetches a share's bytes, nothing else. It lives
 * among the assets (its imports are relative) and may control the share pages, `/s/`.
 */
export const DOWNLOAD_WORKER_HEADERS: Record<string, string> = {
  ...COMMON,
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; connect-src 'self'",
  'Service-Worker-Allowed': '/s/',
};
