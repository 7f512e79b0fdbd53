import { createServer, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { paceBody } from './body-pace.js';
import { EVERY_ANSWER } from '../responses/answer-headers.js';
import { boundConnections } from './connection-bound.js';

/** How much of a client the server puts up with before any request handler runs. */
export interface ServerLimits {
  /** Largest request head (request line and every header), in bytes; beyond it 431. */
  maxHeaderSize: number;
  /** The whole request head must have arrived within this many ms (slow-header clients); beyond it 408. */
  headersTimeout: number;
  /** A connection with no traffic either way for this many ms is closed (slow bodies, stalled readers). */
  idleTimeout: number;
  /** How long a kept-alive connection may wait for its next request, in ms. */
  keepAliveTimeout: number;
  /** How often Node checks the head deadline, in ms; a deadline is enforced up to this late. */
  connectionsCheckingInterval: number;
  /** A body other than an upload's (multipart) must have arrived whole within this many ms; beyond it 408. */
  bodyTimeout: number;
  /** An upload body must bring at least this many bytes per second, judged over each uploadRateWindow; else 408. */
  uploadMinRate: number;
  /** In ms; a stall shorter than this window that the rest of the window makes up for passes. */
  uploadRateWindow: number;
  /** Open connections one client address (an IPv6 /56) may hold; the next ones are answered 429 and closed. */
  maxConnectionsPerAddress: number;
}

export const SERVER_LIMITS: ServerLimits = Object.freeze({
  maxHeaderSize: 16 * 1024,
  headersTimeout: 30_000,
  idleTimeout: 120_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 5_000,
  bodyTimeout: 15_000,
  uploadMinRate: 1024,
  uploadRateWindow: 60_000,
  maxConnectionsPerAddress: 100,
});

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'The request headers are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request headers took too long to arrive'],
};
const EVERY_ANSWER_LINES = Object.entries(EVERY_ANSWER)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');
const MALFORMED: [number, string, string] = [400, 'Bad Request', 'Malformed HTTP request'];

/**
 * The method of the request Node refused, when the bytes it refused start with the request line; null when they do
 * not (the head arrived in pieces and the refused piece is a later one, or nothing arrived before a timeout).
 */
function refusedMethod(err: NodeJS.ErrnoException & { rawPacket?: unknown }): string | null {
  const raw = err.rawPacket;
  if (!Buffer.isBuffer(raw)) return null;
  return /^([A-Z]+) \S/.exec(raw.subarray(0, 32).toString('latin1'))?.[1] ?? null;
}

/**
 * Node answers a request it cannot parse (or that is too slow or too big) before our app sees it. This answer keeps
 * the one error shape and the headers every other response carries (EVERY_ANSWER). A HEAD answer carries no body,
 * or a client would read the body as the start of the next response; when the method cannot be known, no body goes
 * either, since only the status is sure to be read right.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const inResponse = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (err.code === 'ECONNRESET' || !socket.writable || inResponse) {
    socket.destroy();
    return;
  }
  const [status, reason, message] = CLIENT_ERRORS[err.code ?? ''] ?? MALFORMED;
  const method = refusedMethod(err);
  const body = method === null || method === 'HEAD' ? '' : JSON.stringify({ error: 'bad_request', message });
  const type = body === '' ? '' : 'Content-Type: application/json; charset=utf-8\r\n';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n${type}Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `${EVERY_ANSWER_LINES}Connection: close\r\n\r\n${body}`,
  );
}

/**
 * The HTTP server for the app. Uploads may legitimately take long, so there is no whole-request deadline; the head
 * must arrive quickly, a body must keep a pace, a connection must never sit silent, and one address holds a bounded
 * number of connections.
 */
export function createHttpServer(listener: RequestListener, overrides: Partial<ServerLimits> = {}): Server {
  const limits = { ...SERVER_LIMITS, ...overrides };
  const server = createServer({
    maxHeaderSize: limits.maxHeaderSize,
    connectionsCheckingInterval: limits.connectionsCheckingInterval,
  });
  const refused = boundConnections(server, limits.maxConnectionsPerAddress);
  server.on('request', (req, res) => {
    if (refused(req, res)) return;
    paceBody(req, res, limits);
    listener(req, res);
  });
  server.requestTimeout = 0;
  server.headersTimeout = limits.headersTimeout;
  server.keepAliveTimeout = limits.keepAliveTimeout;
  server.setTimeout(limits.idleTimeout);
  server.on('clientError', answerClientError);
  // A client that half-closes after sending its whole request still reads the answer; without this Node ends the
  // socket on the client's FIN, and a finished upload would be stored with nobody told (undocumented, Node >= 0.x).
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  return server;
}
