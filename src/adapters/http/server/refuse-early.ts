import type { ServerResponse } from 'node:http';
import { EVERY_ANSWER } from '../responses/answer-headers.js';

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
    ...EVERY_ANSWER,
    ...(body.retryAfter !== undefined && { 'Retry-After': String(body.retryAfter) }),
    Connection: 'close',
  });
  res.end(text);
  return true;
}
