import type { ServerResponse } from 'node:http';

/**
 * Answers a request from outside the app (the server's own limits), in the one error shape, and closes the
 * connection after it. Node leaves the body out for HEAD. False when an answer has already started: the caller cuts.
 */
export function answerEarly(
  res: ServerResponse,
  status: number,
  body: { error: string; message: string; retryAfter?: number },
): boolean {
  if (res.headersSent || res.writableEnded) return false;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'X-Content-Type-Options': 'nosniff',
    ...(body.retryAfter !== undefined && { 'Retry-After': String(body.retryAfter) }),
    Connection: 'close',
  });
  res.end(text);
  return true;
}
