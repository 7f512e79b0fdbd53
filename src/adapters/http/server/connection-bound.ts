import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { throttleGroup } from './client-address.js';
import { refuseEarly } from './refuse-early.js';

/** A connection over the bound gets this long to send the request it is refused on; then it is closed unanswered. */
export const REFUSED_GRACE_MS = 2_000;
/** Seconds a refused client is told to wait (Retry-After). */
const RETRY_AFTER = 1;

/**
 * Counts the open connections of each client address (the socket's, as the throttle groups it: IPv4 as is, IPv6 by
 * its /56) and refuses those beyond `max`: a refused connection is not counted, its first request is answered 429
 * and the connection closes. Returns the check the request listener runs first: true when it answered.
 */
export function boundConnections(server: Server, max: number): (req: IncomingMessage, res: ServerResponse) => boolean {
  const open = new Map<string, number>();
  const refused = new WeakSet<Socket>();

  server.on('connection', (socket: Socket) => {
    const key = throttleGroup(socket.remoteAddress ?? 'unknown');
    const count = open.get(key) ?? 0;
    if (count >= max) {
      refused.add(socket);
      const grace = setTimeout(() => socket.destroy(), REFUSED_GRACE_MS).unref();
      socket.once('close', () => clearTimeout(grace));
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });

  return (req, res) => {
    if (!refused.has(req.socket)) return false;
    const answered = refuseEarly(res, 429, {
      error: 'rate_limited',
      message: `Too many open connections from this address (at most ${max}); close some and retry`,
      retryAfter: RETRY_AFTER,
    });
    if (!answered) req.socket.destroy();
    return true;
  };
}
