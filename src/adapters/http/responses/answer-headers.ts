/**
 * What every answer carries, whoever writes it: the app (errorMiddleware, sendError), the server's own pacing and
 * connection bound (refuseEarly), and Node's refusals before the app runs (http-server.ts). No body is ever sniffed
 * into another type, and no answer's address (a share's /s/{id}, a file's, a page's) is handed to another site as a
 * Referer, from a page, a download opened in a tab, or an error.
 */
export const EVERY_ANSWER: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
});
