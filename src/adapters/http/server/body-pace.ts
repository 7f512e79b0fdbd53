import type { IncomingMessage, ServerResponse } from 'node:http';
import { refuseEarly } from './refuse-early.js';

/** How long a request body may take (see ServerLimits). */
export interface BodyPace {
  bodyTimeout: number;
  uploadMinRate: number;
  uploadRateWindow: number;
}

const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
/** A multipart upload, or the bytes of a resumable (tus) upload. */
const isUpload = (req: IncomingMessage) =>
  /^(multipart\/form-data|application\/offset\+octet-stream)\b/i.test(req.headers['content-type'] ?? '');

/**
 * Watches a request's body until it has arrived, whatever the app does with it (reads it, refuses it unread and lets
 * Node drain it): a JSON or any other body that is not an upload must arrive whole within `bodyTimeout`; an upload's
 * body (multipart, or a tus append) must bring `uploadMinRate` bytes per second over each `uploadRateWindow`, so a
 * brief stall passes. Too
 * slow answers 408 (or cuts the connection once an answer has started), and the connection closes. Bytes are counted
 * on the socket, never by reading the body; a window in which the app itself held the body back (a slow store
 * pausing the request) is not judged.
 */
export function paceBody(req: IncomingMessage, res: ServerResponse, pace: BodyPace): void {
  if (!hasBody(req)) return;
  const { socket } = req;
  let timer: NodeJS.Timeout;
  let heldBack = false;
  const onPause = () => (heldBack = true);
  const stopWatching = () => {
    // Node's clearTimeout clears an interval as well.
    clearTimeout(timer);
    req.off('pause', onPause);
  };
  // Node aborts a request when its connection closes only while the request's answer is pending. One answered
  // before its body arrived (an error, the 408 below) would leave whoever still reads the body waiting for ever.
  const onClose = () => {
    stopWatching();
    if (!req.complete) req.destroy();
  };
  const done = () => {
    stopWatching();
    socket.off('close', onClose);
  };
  const tooSlow = (message: string) => {
    stopWatching();
    if (req.complete) return done();
    if (!refuseEarly(res, 408, { error: 'bad_request', message })) socket.destroy();
  };

  if (!isUpload(req)) {
    const message = `The request body must arrive within ${pace.bodyTimeout / 1000} s`;
    timer = setTimeout(() => tooSlow(message), pace.bodyTimeout);
  } else {
    const minimum = (pace.uploadMinRate * pace.uploadRateWindow) / 1000;
    let counted = socket.bytesRead;
    req.on('pause', onPause);
    timer = setInterval(() => {
      if (req.complete) return done();
      const arrived = socket.bytesRead - counted;
      counted = socket.bytesRead;
      const ours = heldBack || req.isPaused() || req.readableLength > 0;
      heldBack = false;
      if (!ours && arrived < minimum) tooSlow(`An upload must keep up at least ${pace.uploadMinRate} bytes per second`);
    }, pace.uploadRateWindow);
  }
  timer.unref();
  req.once('end', done);
  socket.once('close', onClose);
}
