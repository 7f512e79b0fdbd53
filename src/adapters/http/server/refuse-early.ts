import type { ServerResponse } from 'node:http';
import { EVERY_ANSWER } from '../responses/answer-headers.js';

/**
 * Refuses a request from outside the app, on the server's own limits (a body too slow, too many connections): an
 * error in the one shape, and the connection closes after it. Node leaves the body out for HEAD. False when an answer
 * has already started: the caller cuts the connection instead. (Answers the app sends itself go through Koa, or
 * through responses/answer-now.ts when a handler must know they were delivered.)
 */
export function refuseEarly(
  res: ServerResponse,
  status: number,
  body: { error: string; message: string; retryAfter?: number },
): boolean {
  if (res.headersSent || res.writableEnded) return false;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...EVERY_ANSWER,
    ...(body.retryAfter !== undefined && { 'Retry-After': String(body.retryAfter) }),
    Connection: 'close',
  });
  res.end(text);
  return true;
}
