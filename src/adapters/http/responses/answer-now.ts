import type { Context } from 'koa';

/**
 * Sends a handler's JSON answer at once, instead of leaving it to Koa once the handler returns, and resolves whether
 * it went out: true once the whole answer was handed to the operating system, false when the connection is gone
 * first. A handler that must undo its work when nobody hears of it (an upload) asks this before it commits. (The
 * server's own refusals, outside the app, are server/refuse-early.ts.)
 */
export function answerNow(ctx: Context, status: number, body: unknown): Promise<boolean> {
  const { res } = ctx;
  if (res.destroyed || res.writableEnded || !res.socket || res.socket.destroyed) return Promise.resolve(false);
  const text = JSON.stringify(body);
  ctx.respond = false;
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.length = Buffer.byteLength(text);
  return new Promise((resolve) => {
    res.once('finish', () => resolve(true));
    res.once('close', () => resolve(res.writableFinished));
    res.end(text);
  });
}
